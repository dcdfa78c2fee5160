import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { useNotify } from '../../app/notify';
import { Button } from '../../ui/controls';
import { Modal } from '../../ui/Modal';

export type StatusToggleRef = ActorRefFrom<typeof statusToggleMachine>;

interface StatusToggleProps {
  toggle: StatusToggleRef;
  /** The select's accessible name: what it changes, and of whom. */
  label: string;
  choices: { value: string; label: string }[];
  /** The confirmation dialog's title and sentence, for the values the toggle confirms first. */
  confirmTitle?: string;
  confirmText?: string;
  confirmLabel?: string;
}

/**
 * A status select over a status toggle actor: it shows the new value while saving, asks in a dialog
 * first when the value needs it, and goes back (with a toast and a line beside it) if refused.
 */
export function StatusToggle({
  toggle,
  label,
  choices,
  confirmTitle = 'Are you sure?',
  confirmText,
  confirmLabel = 'Yes',
}: StatusToggleProps) {
  useNotify(toggle);
  const view = useSelector(toggle, (s) => ({
    field: s.context.field,
    id: s.context.id,
    value: s.context.value,
    pending: s.context.pending,
    busy: s.hasTag('busy'),
    confirming: s.hasTag('confirming'),
    failed: s.hasTag('failed'),
    error: s.context.error,
  }));
  const id = `${view.field}-${view.id}`;
  const cancel = () => toggle.send({ type: 'toggle.cancel' });
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={view.value}
        disabled={view.busy || view.confirming}
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
      {view.failed && view.error && (
        <span role="alert" className="text-xs text-red-700">
          {view.error}
        </span>
      )}
      <Modal open={view.confirming} onClose={cancel} title={confirmTitle} role="alertdialog">
        <p className="text-slate-700">{confirmText}</p>
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={cancel}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => toggle.send({ type: 'toggle.confirm' })}>
            {confirmLabel}
          </Button>
        </div>
      </Modal>
    </div>
  );
}
