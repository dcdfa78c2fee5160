import { useActors, useAppActor, useSession } from '../app/actors';
import { Button } from '../ui/controls';

/** Makes it plain whose portal the admin is looking at, and how to get back. */
export function ImpersonationBanner() {
  const { impersonation } = useActors();
  const user = useSession((s) => s.context.user);
  const view = useAppActor('impersonation', (s) => ({
    impersonating: s.hasTag('impersonating'),
    busy: s.hasTag('busy'),
  }));
  if (!view.impersonating || !user) return null;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 bg-amber-100 px-4 py-2 text-sm text-amber-950"
    >
      <p>
        You are signed in as <strong>{user.name}</strong>
        {user.training_school ? ` (${user.training_school.name})` : ''}
        {user.impersonator ? `, on behalf of ${user.impersonator.name}` : ''}. Everything you do is recorded.
      </p>
      <Button
        variant="secondary"
        busy={view.busy}
        busyLabel="Switching…"
        onClick={() => impersonation.send({ type: 'impersonation.switchBack' })}
      >
        Switch To Admin
      </Button>
    </div>
  );
}
