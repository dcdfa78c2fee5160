import { Link } from 'wouter';
import { SCHOOL_BROADCASTS_PAGE } from '../../contract/broadcasts';
import { HOME_PATH } from '../../contract/navigation';
import { SCHOOL_MESSAGES_PAGE } from '../../contract/notifications';
import { ROLE_LABELS } from '../../contract/roles';
import { useActors, useSession } from '../app/actors';
import { Button } from '../ui/controls';
import { RegistrationCountdown } from '../ui/RegistrationCountdown';
import { SchoolNotices } from '../ui/SchoolNotices';
import { SuspendedSchoolNotice } from '../ui/SuspendedSchoolNotice';

/** The plain pages of the shell; each area's real screens replace AreaBeingBuilt in its own issue. */

export function AreaBeingBuilt({ title }: { title: string }) {
  return (
    <section>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-4 rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
        This area is being built.
      </p>
    </section>
  );
}

export function NotForYourRole() {
  return (
    <section className="rounded-md bg-white p-6 ring-1 ring-slate-200" role="alert">
      <h1 className="text-2xl font-semibold">Not available for your role</h1>
      <p className="mt-2 text-slate-600">
        This page is not available for your role. Ask the board if you need it.
      </p>
      <Link href={HOME_PATH} className="mt-4 inline-block text-brand-700 underline">
        Go to the dashboard
      </Link>
    </section>
  );
}

export function OverviewPage() {
  const { messageForm } = useActors();
  const user = useSession((s) => s.context.user);
  if (!user) return null;
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Dashboard</h1>
      <SuspendedSchoolNotice />
      {user.user_role === 'school_admin' && <RegistrationCountdown role="school_admin" />}
      <div className="rounded-md bg-white p-6 ring-1 ring-slate-200">
        <p className="text-lg">Welcome, {user.name}.</p>
        <p className="mt-1 text-slate-600">
          {ROLE_LABELS[user.user_role]}
          {user.training_school ? ` · ${user.training_school.name} (${user.training_school.code})` : ''}
        </p>
        <p className="mt-4 text-slate-600">The statistics overview is being built.</p>
      </div>
      {user.user_role === 'school_admin' && (
        <div className="mt-4 rounded-md bg-white p-6 ring-1 ring-slate-200">
          <h2 className="font-semibold">Need the board?</h2>
          <p className="mt-1 text-slate-600">
            Send the board a message; it arrives among the board&apos;s notifications, and its answers come to
            your messages (and by mail).
          </p>
          <div className="mt-4 flex flex-wrap items-center gap-4">
            <Button onClick={() => messageForm.send({ type: 'form.open' })}>Message the board</Button>
            <Link href={SCHOOL_MESSAGES_PAGE} className="text-brand-700 underline">
              Your messages with the board
            </Link>
          </div>
        </div>
      )}
      {user.user_role === 'school_admin' && (
        <div className="mt-4 rounded-md bg-white p-6 ring-1 ring-slate-200">
          <h2 className="font-semibold">Broadcasts from the board</h2>
          <p className="mt-1 text-slate-600">
            What the board has sent your school, and what it asks you to acknowledge.
          </p>
          <Link href={SCHOOL_BROADCASTS_PAGE} className="mt-2 inline-block text-brand-700 underline">
            Read the broadcasts
          </Link>
        </div>
      )}
      {user.user_role === 'school_admin' && <SchoolNotices />}
    </section>
  );
}
