import type { FormEvent } from 'react';
import { Redirect, useSearch } from 'wouter';
import { CONFIRM_CODE_LENGTH } from '../../contract/auth';
import { LOGIN_PATH } from '../../contract/paths';
import { useActors, useSession } from '../app/actors';
import { redirectTarget } from '../app/redirect';
import { Alert, Button, Splash, TextField } from '../ui/controls';
import { AuthLayout } from './AuthLayout';

export function ConfirmCodePage() {
  const { session } = useActors();
  const search = useSearch();
  const view = useSession((s) => ({
    signedIn: s.hasTag('signedIn'),
    awaitingCode: s.hasTag('awaitingCode'),
    loading: s.matches('starting') || s.matches('loadingProfile'),
    confirming: s.matches('confirming'),
    resending: s.matches('resendingCode'),
    email: s.context.challenge?.email ?? '',
    error: s.context.error,
    notice: s.context.notice,
  }));

  if (view.signedIn) return <Redirect to={redirectTarget(search)} replace />;
  if (view.loading) return <Splash message="Signing you in…" />;
  if (!view.awaitingCode) return <Redirect to={`${LOGIN_PATH}${search ? `?${search}` : ''}`} replace />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').replace(/\D/g, '');
    session.send({ type: 'session.confirm', code });
  };

  return (
    <AuthLayout title="Enter your code">
      <form onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">
          We sent a {CONFIRM_CODE_LENGTH}-digit code to <strong className="break-all">{view.email}</strong>.
          It works for 10 minutes.
        </p>
        {view.notice && <Alert tone="info">{view.notice}</Alert>}
        <TextField
          label="Confirmation code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={CONFIRM_CODE_LENGTH}
          required
          autoFocus
          error={view.error ?? undefined}
        />
        <Button type="submit" className="w-full" busy={view.confirming} busyLabel="Checking…">
          Confirm
        </Button>
        <div className="flex items-center justify-between text-sm">
          <Button
            type="button"
            variant="link"
            busy={view.resending}
            busyLabel="Sending…"
            onClick={() => session.send({ type: 'session.resend' })}
          >
            Send a new code
          </Button>
          <Button type="button" variant="link" onClick={() => session.send({ type: 'session.cancel' })}>
            Use another account
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}
