import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, AUDIT_MACHINE_STEPS } from '../../contract/audit';
import { statechartHref } from '../../contract/statecharts';
import { descendantsOf, MACHINES, ownTransitionsOf, transitionName } from '../../scripts/statecharts';

/** The transitions of each charted machine, by the names /statecharts anchors. */
const transitionsByMachine = new Map(
  MACHINES.map(({ name, machine }) => [
    name,
    [machine.root, ...descendantsOf(machine.root)].flatMap((node) =>
      ownTransitionsOf(node).map(transitionName),
    ),
  ]),
);

describe('audit actions driven by a statechart', () => {
  const steps = Object.entries(AUDIT_MACHINE_STEPS);

  it.each(steps)('%s names a machine and a transition that exist', (action, step) => {
    expect(Object.keys(AUDIT_ACTIONS)).toContain(action);
    const transitions = transitionsByMachine.get(step!.machine);
    expect(transitions, `no machine "${step!.machine}" in MACHINES`).toBeDefined();
    expect(transitions, `"${step!.transition}" is not a transition of ${step!.machine}`).toContain(
      step!.transition,
    );
  });

  it('covers the machine-driven actions of the issue: a status toggle, a payment settled, a sheet locked', () => {
    expect(AUDIT_MACHINE_STEPS['candidate.reg_status_changed']?.machine).toBe('statusToggle');
    expect(AUDIT_MACHINE_STEPS['payment.status_changed']?.machine).toBe('payment');
    expect(AUDIT_MACHINE_STEPS['score_sheet.locked']?.machine).toBe('scoreSheet');
  });

  it('links an action to its transition on /statecharts', () => {
    const step = AUDIT_MACHINE_STEPS['score_sheet.locked']!;
    expect(statechartHref(step.machine, step.transition)).toBe(
      '/statecharts#scoreSheet-locking-done-lockSheet-loading',
    );
  });

  it('fails for a transition the machine does not have', () => {
    expect(transitionsByMachine.get('scoreSheet')).not.toContain('locking --done: lockSheet--> published');
  });
});
