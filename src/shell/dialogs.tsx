import { lazy, Suspense, useState, type ChangeEvent } from 'react';
import { GENDERS } from '../../contract/constants';
import { MESSAGE_LIMITS } from '../../contract/notifications';
import { isPortalFileUrl, PLACEHOLDER_PHOTO, type User } from '../../contract/user';
import { useActors, useAppActor, useSession } from '../app/actors';
import { Button, SelectField, TextAreaField, TextField } from '../ui/controls';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { FormDialog } from '../ui/FormDialog';
import { Modal } from '../ui/Modal';
import { NewPasswordFields } from '../ui/NewPasswordFields';

export function LogoutDialog() {
  const { session } = useActors();
  const open = useSession((s) => s.matches({ signedIn: 'confirmingSignOut' }));
  const cancel = () => session.send({ type: 'session.signOut.cancel' });
  return (
    <ConfirmDialog
      open={open}
      title="Log out"
      confirmLabel="Yes"
      tone="primary"
      onCancel={cancel}
      onConfirm={() => session.send({ type: 'session.signOut.confirm' })}
    >
      <p>Are you sure you want to log out?</p>
    </ConfirmDialog>
  );
}

/** The photo only when it is on the portal's own file storage; the placeholder otherwise (spec 3). */
export function ProfilePhoto({ user, className }: { user: User; className: string }) {
  const own = isPortalFileUrl(user.photo, window.location.origin);
  return (
    <img
      src={own ? user.photo! : PLACEHOLDER_PHOTO}
      alt=""
      data-photo={own ? 'own' : 'placeholder'}
      className={`rounded-full object-cover ${className}`}
    />
  );
}

/** The header's "Your profile" card: the app machine knows whether it is open. */
export function ViewProfileDialog() {
  const { app } = useActors();
  const open = useAppActor('app', (s) => s.hasTag('profileCard'));
  const user = useSession((s) => s.context.user);
  if (!user) return null;
  const close = () => app.send({ type: 'app.profileCard.close' });
  return (
    <Modal open={open} onClose={close} title="Your profile">
      <div className="flex items-center gap-4">
        <ProfilePhoto user={user} className="h-20 w-20" />
        <dl className="min-w-0">
          <dt className="sr-only">Name</dt>
          <dd className="font-semibold">{user.name}</dd>
          <dt className="sr-only">Email</dt>
          <dd className="break-all text-slate-600">{user.email}</dd>
        </dl>
      </div>
      <div className="mt-6 flex items-center justify-between">
        <Button variant="link" onClick={() => app.send({ type: 'app.profileCard.edit' })}>
          Edit profile
        </Button>
        <Button variant="secondary" onClick={close}>
          Close
        </Button>
      </div>
    </Modal>
  );
}

function formatBytes(bytes: number) {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(2)} MB` : `${Math.ceil(bytes / 1000)} KB`;
}

/** The image chooser with a preview of the chosen file; it lives and dies with the open dialog. */
function PhotoField({ user, error }: { user: User; error?: string }) {
  const [chosen, setChosen] = useState<{ url: string; size: number } | null>(null);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (chosen) URL.revokeObjectURL(chosen.url);
    setChosen(file ? { url: URL.createObjectURL(file), size: file.size } : null);
  };
  return (
    <div className="flex items-end gap-4">
      {chosen ? (
        <img src={chosen.url} alt="The chosen image" className="h-16 w-16 rounded-full object-cover" />
      ) : (
        <ProfilePhoto user={user} className="h-16 w-16" />
      )}
      <div className="flex-1">
        <TextField
          label="Change Image"
          name="photo"
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          onChange={choose}
          error={error}
          hint={
            chosen
              ? `Chosen image: ${formatBytes(chosen.size)} (at most 2 MB)`
              : 'JPEG, PNG, GIF or WebP, at most 2 MB'
          }
        />
      </div>
    </div>
  );
}

/** Spec section 2: Full name, Email address, Change Image, gender for admin only; Update info, Close. */
export function EditProfileDialog() {
  const user = useSession((s) => s.context.user);
  if (!user) return null;
  return (
    <FormDialog
      actor="profileForm"
      title="Edit profile"
      submitLabel="Update info"
      busyLabel="Loading..."
      closeLabel="Close"
    >
      {(fieldError) => (
        <>
          <TextField
            label="Full name"
            name="name"
            defaultValue={user.name}
            autoComplete="name"
            error={fieldError('name')}
          />
          <TextField
            label="Email address"
            name="email"
            type="email"
            defaultValue={user.email}
            autoComplete="email"
            error={fieldError('email')}
          />
          <input type="hidden" name="phone_number" value={user.phone_number ?? ''} />
          {user.user_role === 'admin' && (
            <SelectField
              label="Gender"
              name="gender"
              defaultValue={user.gender ?? ''}
              error={fieldError('gender')}
            >
              <option value="" disabled>
                Choose…
              </option>
              {GENDERS.map((gender) => (
                <option key={gender} value={gender}>
                  {gender}
                </option>
              ))}
            </SelectField>
          )}
          <PhotoField user={user} error={fieldError('photo')} />
        </>
      )}
    </FormDialog>
  );
}

/** Spec section 2: Old password, New password, Confirm password; Save and Cancel. */
export function ChangePasswordDialog() {
  return (
    <FormDialog
      actor="passwordForm"
      title="Change password"
      submitLabel="Save"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(fieldError) => (
        <>
          <TextField
            label="Old password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            error={fieldError('current_password')}
          />
          <NewPasswordFields fieldError={fieldError} />
        </>
      )}
    </FormDialog>
  );
}

/** A school admin's message to the board: it arrives among the board's notifications. */
export function MessageBoardDialog() {
  return (
    <FormDialog
      actor="messageForm"
      title="Message the board"
      submitLabel="Send"
      busyLabel="Sending…"
      closeLabel="Cancel"
    >
      {(fieldError) => (
        <>
          <TextField
            label="Subject"
            name="subject"
            maxLength={MESSAGE_LIMITS.subjectMax}
            error={fieldError('subject')}
          />
          <TextAreaField
            label="Message"
            name="message"
            rows={6}
            maxLength={MESSAGE_LIMITS.bodyMax}
            error={fieldError('message')}
          />
        </>
      )}
    </FormDialog>
  );
}

/** Asks the admin why they sign in as a school admin; the reason goes to the audit log. */
export function ImpersonationDialog() {
  const { impersonation } = useActors();
  const view = useAppActor('impersonation', (s) => ({
    open: s.matches('askingReason') || s.matches('starting'),
    busy: s.matches('starting'),
    target: s.context.target,
    error: s.context.error,
  }));
  const cancel = () => impersonation.send({ type: 'impersonation.cancel' });
  return (
    <Modal
      open={view.open}
      onClose={view.busy ? () => {} : cancel}
      title={`Log in as ${view.target?.name ?? ''}`}
    >
      <form
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
          impersonation.send({ type: 'impersonation.confirm', reason });
        }}
      >
        <p className="text-sm text-slate-600">
          You will see the portal as {view.target?.email} sees it. Everything you do is recorded with your
          name.
        </p>
        <TextAreaField label="Reason" name="reason" rows={3} required error={view.error ?? undefined} />
        <div className="flex justify-end gap-3">
          <Button type="button" variant="secondary" onClick={cancel} disabled={view.busy}>
            Cancel
          </Button>
          <Button type="submit" busy={view.busy} busyLabel="Signing in…">
            Log in as this user
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** The live state list and its Copy, from /statecharts's chunk: loaded when the dialog first opens. */
const LiveStateList = lazy(() => import('../statecharts/LiveStateList'));

/**
 * "Live state (for support)", at the foot of every signed-in page: the user's own actors as they are now
 * (the app's and the open page's: a payment, a form), to copy into a message to the board without
 * leaving the page.
 */
export function LiveStateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Live state (for support)">
      <Suspense fallback={<p className="text-sm text-slate-600">Loading…</p>}>
        <LiveStateList onLeave={onClose} />
      </Suspense>
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Modal>
  );
}
