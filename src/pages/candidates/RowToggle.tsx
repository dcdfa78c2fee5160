import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { rowKey, type listMachine } from '../../../machines/list.machine';
import type { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { useNotify } from '../../app/notify';
import { Button } from '../../ui/controls';

type StatusToggle = ActorRefFrom<typeof statusToggleMachine>;

interface RowToggleProps {
  row: { id: number | string };
  choices: { value: string; label: string }[];
  confirmText?: string;
  label: string;
  disabled?: boolean;
}

/**
 * One row's status control, over the status toggle actor the list spawned for that row (`name`: which
 * of the row's actors, when the list was given several row inputs).
 */
export function RowToggle({
  list,
  name,
  ...props
}: RowToggleProps & { list: ActorRefFrom<typeof listMachine>; name?: string }) {
  const toggle = useSelector(list, (s) => s.context.rows[rowKey(props.row.id, name)]) as
    StatusToggle | undefined;
  return toggle ? <ToggleControl key={toggle.id} toggle={toggle} {...props} /> : null;
}

/**
 * The row shows the new value while it saves, asks first when the value needs it, and goes back (with
 * a toast) if refused.
 */
function ToggleControl({
  toggle,
  row,
  choices,
  confirmText,
  label,
  disabled,
}: RowToggleProps & { toggle: StatusToggle }) {
  useNotify(toggle);
  const view = useSelector(toggle, (s) => ({
    field: s.context.field,
    value: s.context.value,
    busy: s.hasTag('busy'),
    confirming: s.hasTag('confirming'),
    failed: s.hasTag('failed'),
    error: s.context.error,
  }));
  const id = `${view.field}-${row.id}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
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
