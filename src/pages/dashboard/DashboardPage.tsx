import { Suspense } from 'react';
import { Link } from 'wouter';
import { AUDIT_TRAIL_PAGE, BOARD_STAFF_PAGE } from '../../../contract/navigation';
import { SCHOOL_MESSAGES_PAGE } from '../../../contract/notifications';
import { ROLE_LABELS } from '../../../contract/roles';
import { loadBoardDashboard, loadSchoolDashboard } from '../../api/dashboard';
import { useActors, useSession } from '../../app/actors';
import { LoadBoundary, useResource } from '../../app/resource';
import { Button } from '../../ui/controls';
import { RegistrationCountdown } from '../../ui/RegistrationCountdown';
import { SchoolNotices } from '../../ui/SchoolNotices';
import { SuspendedSchoolNotice } from '../../ui/SuspendedSchoolNotice';
import { BoardView } from './BoardView';
import { SchoolView } from './SchoolView';

function BoardNumbers() {
  return <BoardView data={useResource('dashboard-admin', loadBoardDashboard)} />;
}

function SchoolNumbers() {
  return <SchoolView data={useResource('dashboard-school', loadSchoolDashboard)} />;
}

/**
 * While the numbers load, they keep a screen's height: what follows them (the links, the school's
 * notices, the footer) starts below the screen and stays there when they arrive, instead of being on
 * screen and pushed down (a layout shift of 0.17 and 0.53 on a phone, issue 28).
 */
function NumbersLoading() {
  return (
    <>
      <p className="text-slate-600">Loading the numbers…</p>
      {/* Empty, so nothing of it is seen to move when the registration window arrives above it. */}
      <div className="min-h-screen" aria-hidden="true" />
    </>
  );
}

/** /overview, the first page of both roles (spec: Dashboard). */
export default function DashboardPage() {
  const { messageForm } = useActors();
  const user = useSession((s) => s.context.user);
  if (!user) return null;
  const school = user.user_role === 'school_admin';
  return (
    <section className="max-w-full overflow-x-hidden">
      <h1 className="mb-1 text-2xl font-semibold">Dashboard</h1>
      <p className="mb-4 text-slate-600">
        Welcome, {user.name}. {ROLE_LABELS[user.user_role]}
        {user.training_school ? ` · ${user.training_school.name} (${user.training_school.code})` : ''}
      </p>
      <SuspendedSchoolNotice />
      <RegistrationCountdown role={user.user_role} />
      <LoadBoundary>
        <Suspense fallback={<NumbersLoading />}>{school ? <SchoolNumbers /> : <BoardNumbers />}</Suspense>
      </LoadBoundary>
      {school && (
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
      {!school && (
        <p className="mt-4">
          <Link href={BOARD_STAFF_PAGE} className="text-brand-700 underline">
            Board staff
          </Link>{' '}
          <span className="text-slate-600">
            (the board&apos;s admins, their invitations and the sheets they mark)
          </span>
        </p>
      )}
      {!school && (
        <p className="mt-2">
          <Link href={AUDIT_TRAIL_PAGE} className="text-brand-700 underline">
            Audit trail
          </Link>{' '}
          <span className="text-slate-600">
            (everything done in the portal: who, as whom, when and what changed)
          </span>
        </p>
      )}
      {school && <SchoolNotices />}
    </section>
  );
}
