import { SCHOOL_MESSAGES } from '../../contract/schools';
import { useSession } from '../app/actors';

/**
 * Tells a school admin whose school the board has suspended what that means, on their dashboard and
 * above the registration list, before they try what the server would refuse. Nothing for anyone else.
 */
export function SuspendedSchoolNotice() {
  const school = useSession((s) => s.context.user?.training_school ?? null);
  if (school?.status !== 'suspended') return null;
  return (
    <div role="status" className="mb-4 rounded-md bg-amber-50 px-4 py-3 text-amber-900 ring-1 ring-amber-300">
      <p className="font-semibold">
        {school.name} ({school.code}) is suspended by the board.
      </p>
      <p className="mt-1 text-sm">{SCHOOL_MESSAGES.suspendedNotice}</p>
    </div>
  );
}
