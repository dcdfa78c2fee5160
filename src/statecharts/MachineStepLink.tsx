import { AUDIT_MACHINE_STEPS, type AuditAction } from '../../contract/audit';
import { statechartHref } from '../../contract/statecharts';

/**
 * For an audit entry: the statechart transition its action comes from, linked to that transition on
 * /statecharts (which opens without signing in). Nothing for an action no machine drives. The audit
 * trail shows it beside the action.
 */
export function MachineStepLink({ action }: { action: AuditAction }) {
  const step = AUDIT_MACHINE_STEPS[action];
  if (!step) return null;
  return (
    <a
      className="text-brand-700 underline underline-offset-2"
      href={statechartHref(step.machine, step.transition)}
      title={`${step.machine}: ${step.transition}`}
    >
      {step.machine}: {step.transition}
    </a>
  );
}
