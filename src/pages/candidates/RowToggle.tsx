import { useActorRef, useSelector } from '@xstate/react';
import type { CandidateRow } from '../../../contract/candidates';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import type { updateVerification } from '../../api/candidates';
import { useNotify } from '../../app/notify';
import { Button } from '../../ui/controls';

type UpdateStatus = typeof updateVerification;

/**
 * One row's status, changed in the list through its own status toggle actor: the row shows the new
 * value while it saves, asks first when the value needs it, and goes back (with a toast) if refused.
 */
export function RowToggle({
  row,
  field,
  choices,
  confirmValues,
  confirmText,
  updateStatus,
  label,
  disabled,
}: {
  row: CandidateRow;
  field: 'reg_status' | 'verified';
  choices: { value: string; label: string }[];
  confirmValues?: string[];
  confirmText?: string;
  updateStatus: UpdateStatus;
  label: string;
  disabled?: boolean;
}) {
  const toggle = useActorRef(statusToggleMachine.provide({ actors: { updateStatus } }), {
    input: { row: row as unknown as { id: number } & Record<string, unknown>, field, confirmValues },
  });
  useNotify(toggle);
  const view = useSelector(toggle, (s) => ({
    value: s.context.value,
    busy: s.hasTag('busy'),
    confirming: s.hasTag('confirming'),
    failed: s.hasTag('failed'),
    error: s.context.error,
  }));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={`${field}-${row.id}`}>
        {label}
      </label>
      <select
        id={`${field}-${row.id}`}
        value={view.value}
        disabled={disabled || view.busy || view.confirming}
        aria-busy={view.busy || undefined}
        onChange={(event) => toggle.send({ type: 'toggle.change', value: event.currentTarget.value })}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {view.busy && <span className="text-xs text-slate-500">Saving…</span>}
      {view.confirming && (
        <span role="alertdialog" aria-label={confirmText} className="flex items-center gap-2 text-xs">
          {confirmText}
          <Button
            variant="danger"
            className="px-2 py-1"
            onClick={() => toggle.send({ type: 'toggle.confirm' })}
          >
            Yes
          </Button>
          <Button
            variant="secondary"
            className="px-2 py-1"
            onClick={() => toggle.send({ type: 'toggle.cancel' })}
          >
            Cancel
          </Button>
        </span>
      )}
      {view.failed && view.error && (
        <span role="alert" className="text-xs text-red-700">
          {view.error}
        </span>
      )}
    </div>
  );
}
