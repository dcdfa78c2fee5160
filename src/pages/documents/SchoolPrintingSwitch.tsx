import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { statusToggleMachine } from '../../../machines/statusToggle.machine';
import { saveSchoolPrinting } from '../../api/documents';
import { useNotify } from '../../app/notify';

/**
 * The board's switch 'Training schools may print this' for one document, over a status toggle actor
 * (the value shown at once, put back with the reason if the server refuses). A checkbox with the
 * switch role: Space turns it, and a screen reader says on or off. It is not disabled while saving (a
 * disabled control loses the keyboard's focus); a change then is ignored by the toggle, which is busy.
 */
export function SchoolPrintingSwitch({
  ending,
  title,
  allowed,
}: {
  ending: string;
  title: string;
  allowed: boolean;
}) {
  const toggle = useActorRef(
    statusToggleMachine.provide({
      actors: { updateStatus: fromPromise(({ input }) => saveSchoolPrinting(input)) },
    }),
    { input: { row: { id: ending, schools: allowed ? 'yes' : 'no' }, field: 'schools' } },
  );
  useNotify(toggle);
  const view = useSelector(toggle, (s) => ({
    on: s.context.value === 'yes',
    busy: s.hasTag('busy'),
    error: s.hasTag('failed') ? s.context.error : null,
  }));
  const id = `schools-${ending}`;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <input
        id={id}
        type="checkbox"
        role="switch"
        // The visible label, and which document: 22 switches on one page need names of their own.
        aria-label={`Training schools may print this: ${title}`}
        checked={view.on}
        aria-busy={view.busy || undefined}
        aria-describedby={view.error ? `${id}-error` : undefined}
        onChange={(event) =>
          toggle.send({ type: 'toggle.change', value: event.currentTarget.checked ? 'yes' : 'no' })
        }
        className="peer sr-only"
      />
      <label
        htmlFor={id}
        className="flex cursor-pointer items-center gap-2 rounded-md peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
      >
        <span
          aria-hidden="true"
          className={`relative inline-flex h-5 w-9 shrink-0 rounded-full transition-colors ${view.on ? 'bg-brand-700' : 'bg-slate-300'}`}
        >
          <span
            className={`absolute top-0.5 h-4 w-4 rounded-full bg-white shadow transition-transform ${view.on ? 'translate-x-4' : 'translate-x-0.5'}`}
          />
        </span>
        <span>Training schools may print this</span>
      </label>
      {view.busy && <span className="text-xs text-slate-500">Saving…</span>}
      {view.error && (
        <span id={`${id}-error`} role="alert" className="text-xs text-red-700">
          {view.error}
        </span>
      )}
    </div>
  );
}
