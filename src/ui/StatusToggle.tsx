import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { rowKey, type listMachine } from '../../machines/list.machine';
import type { statusToggleMachine } from '../../machines/statusToggle.machine';
import { useNotify } from '../app/notify';
import { ConfirmDialog } from './ConfirmDialog';

export type StatusToggleRef = ActorRefFrom<typeof statusToggleMachine>;
export type ListRef = ActorRefFrom<typeof listMachine>;

interface StatusToggleProps {
  /** The list whose page the row is on. */
  list: ListRef;
  /** The select's accessible name: what it changes, and of whom. */
  label: string;
  choices: readonly { value: string; label: string }[];
  /** The question asked before a value the toggle confirms: its title, a sentence, and the button. */
  confirm?: { title: string; text?: string; action: string };
  /** The row's own reason it cannot change now (a closed registration). */
  disabled?: boolean;
}

/**
 * A list row's status control over the status toggle actor the list spawned for it (`name`: which of
 * the row's actors, when the list was given several row inputs).
 */
export function RowStatusToggle({
  row,
  name,
  ...props
}: StatusToggleProps & { row: { id: number | string }; name?: string }) {
  const toggle = useSelector(props.list, (s) => s.context.rows[rowKey(row.id, name)]) as
    StatusToggleRef | undefined;
  return toggle ? <StatusToggle key={toggle.id} toggle={toggle} {...props} /> : null;
}

/**
 * One status select over a status toggle actor: it shows the new value while saving, asks in a dialog
 * first when the value needs it, and goes back (with a toast and a line beside it) if refused.
 *
 * It is disabled while its list loads a page: the list stops the row actors of the page it replaces
 * (and a row's own actors go with its row), so a change started then would be stopped mid-save and its
 * refusal lost.
 */
export function StatusToggle({
  toggle,
  list,
  label,
  choices,
  confirm = { title: 'Are you sure?', action: 'Yes' },
  disabled,
}: StatusToggleProps & { toggle: StatusToggleRef }) {
  useNotify(toggle);
  const listLoading = useSelector(list, (s) => s.hasTag('loading'));
  const view = useSelector(toggle, (s) => ({
    field: s.context.field,
    id: s.context.id,
    value: s.context.value,
    busy: s.hasTag('busy'),
    confirming: s.hasTag('confirming'),
    failed: s.hasTag('failed'),
    error: s.context.error,
  }));
  const id = `${view.field}-${view.id}`;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        value={view.value}
        disabled={disabled || listLoading || view.busy || view.confirming}
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
      <ConfirmDialog
        open={view.confirming}
        title={confirm.title}
        confirmLabel={confirm.action}
        onConfirm={() => toggle.send({ type: 'toggle.confirm' })}
        onCancel={() => toggle.send({ type: 'toggle.cancel' })}
      >
        {confirm.text && <p>{confirm.text}</p>}
      </ConfirmDialog>
    </div>
  );
}
