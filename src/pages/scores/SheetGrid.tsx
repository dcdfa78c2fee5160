import { useSelector } from '@xstate/react';
import { type FocusEvent, type KeyboardEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  GRID_LABELS,
  QUESTIONS,
  SEMESTERS,
  SHEET_STATE_LABELS,
  formatMark,
  inCourseTotal,
  parseMark,
  totalOf,
  type GridPage,
  type InCourseRow,
  type MarkRow,
} from '../../../contract/scores';
import type { markRowMachine } from '../../../machines/markRow.machine';
import { fieldsOf } from '../../../machines/scoreSheet.machine';
import { useNotify } from '../../app/notify';
import { Alert, Button, TextField } from '../../ui/controls';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { SheetActor } from './openSheets';

/**
 * A marker's grid: a plain table of labelled inputs (up to 500 rows a page), keyboard first. Arrow keys
 * move between cells (left and right at the ends of what is typed), Enter goes down a row, Tab goes on;
 * leaving a row saves it at once, and a pause saves it too. Each mark is checked as it is typed; a row
 * not saved yet says so, and one changed elsewhere shows both and lets the marker keep one. Everything
 * here is read from the sheet's actor and its rows' actors; the view only sends what the marker did.
 */

type RowActor = ActorRefFrom<typeof markRowMachine>;

const cellLabel = (field: string) =>
  field === 'absent'
    ? 'Absent'
    : field.startsWith('q')
      ? field.toUpperCase()
      : (
          {
            first_semester_score: 'First semester',
            second_semester_score: 'Second semester',
            third_semester_score: 'Third semester',
          } as Record<string, string>
        )[field];

/** Moves the focus between the grid's cells as a spreadsheet does. */
function moveFocus(event: KeyboardEvent<HTMLTableElement>) {
  const cell = event.target as HTMLInputElement;
  const row = Number(cell.dataset.row);
  const col = Number(cell.dataset.col);
  if (Number.isNaN(row) || Number.isNaN(col)) return;
  const text = cell.type === 'text';
  const atStart = !text || (cell.selectionStart === 0 && cell.selectionEnd === 0);
  const atEnd = !text || cell.selectionEnd === cell.value.length;
  let to: [number, number] | null = null;
  if (event.key === 'ArrowDown' || event.key === 'Enter') to = [row + 1, col];
  else if (event.key === 'ArrowUp') to = [row - 1, col];
  else if (event.key === 'ArrowRight' && atEnd) to = [row, col + 1];
  else if (event.key === 'ArrowLeft' && atStart) to = [row, col - 1];
  if (!to) return;
  const next = event.currentTarget.querySelector<HTMLInputElement>(
    `[data-row="${to[0]}"][data-col="${to[1]}"]`,
  );
  if (!next) return;
  event.preventDefault();
  next.focus();
  if (next.type === 'text') next.select();
}

export function SheetGrid({ sheet }: { sheet: SheetActor }) {
  useNotify(sheet);
  const view = useSelector(sheet, (s) => ({
    loading: s.matches('loading'),
    failed: s.matches('loadFailed'),
    busy: s.hasTag('busy'),
    data: s.context.data,
    rows: s.context.rows,
    unsaved: s.context.unsaved.length,
    asking: s.matches({ shown: 'askingToLeave' }),
    error: s.context.error,
    reason: s.context.reason,
  }));
  const data = view.data;
  if (view.failed) {
    return (
      <Alert tone="error">
        {view.error?.message}{' '}
        <Button variant="link" onClick={() => sheet.send({ type: 'sheet.retry' })}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (!data) return <p className="text-slate-600">Loading the sheet…</p>;
  const { fields } = fieldsOf(data);
  const state = data.sheet.state;
  const submittable =
    data.editable &&
    ((data.grid === 'one' && (state === 'open' || state === 'marker_two_submitted')) ||
      (data.grid === 'two' && (state === 'open' || state === 'marker_one_submitted')));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="rounded bg-slate-100 px-2 py-1 text-sm" data-testid="sheet-state">
          {SHEET_STATE_LABELS[state]}
        </p>
        <p className="text-sm text-slate-600" aria-live="polite">
          {view.unsaved
            ? `${view.unsaved} ${view.unsaved === 1 ? 'row' : 'rows'} not saved yet`
            : 'All marks saved'}
        </p>
        {submittable && (
          <Button
            busy={view.busy}
            busyLabel="Submitting…"
            onClick={() => sheet.send({ type: 'sheet.submit' })}
          >
            Submit {GRID_LABELS[data.grid].toLowerCase()}’s marks
          </Button>
        )}
        {((state === 'reconciling' && data.sheet.kind === 'exam') ||
          (state === 'open' && data.sheet.kind === 'in_course')) && (
          <Button busy={view.busy} busyLabel="Locking…" onClick={() => sheet.send({ type: 'sheet.lock' })}>
            Lock the sheet
          </Button>
        )}
      </div>
      {!data.editable && (
        <Alert tone="info">
          {state === 'locked' || state === 'published'
            ? 'This sheet is locked: its marks cannot change.'
            : 'These marks are shown as entered; only this grid’s marker changes them.'}
        </Alert>
      )}
      {data.editable && data.reason_required && (
        <div className="max-w-xl">
          <TextField
            label="Why these marks change after submission"
            name="reason"
            defaultValue={view.reason ?? ''}
            hint="Kept in the audit log with every mark you change."
            onChange={(event) => sheet.send({ type: 'sheet.reason', reason: event.currentTarget.value })}
          />
        </div>
      )}
      <div className="overflow-x-auto">
        <table
          className="min-w-full text-sm"
          onKeyDown={moveFocus}
          aria-label={`${GRID_LABELS[data.grid]} marks`}
        >
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="px-2 py-1">
                Candidate
              </th>
              {fields.map((field) => (
                <th key={field} scope="col" className="px-1 py-1">
                  {cellLabel(field)}
                  {field.startsWith('q') && data.rules && (
                    <span className="block text-xs font-normal">
                      of {formatMark(data.rules.q_max[QUESTIONS.indexOf(field as never)])}
                    </span>
                  )}
                </th>
              ))}
              <th scope="col" className="px-2 py-1">
                Total
              </th>
              <th scope="col" className="px-2 py-1">
                <span className="sr-only">Saved</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((row, index) =>
              data.editable && view.rows[String(row.candidate_id)] ? (
                <EditableRow
                  key={row.candidate_id}
                  index={index}
                  row={row}
                  fields={fields}
                  page={data}
                  actor={view.rows[String(row.candidate_id)] as RowActor}
                />
              ) : (
                <ShownRow key={row.candidate_id} row={row} fields={fields} />
              ),
            )}
          </tbody>
        </table>
      </div>
      {data.pages > 1 && (
        <nav aria-label="Pages of the grid" className="flex items-center gap-3">
          <Button
            variant="secondary"
            disabled={data.page <= 1 || view.busy}
            onClick={() => sheet.send({ type: 'sheet.page', page: data.page - 1 })}
          >
            Previous
          </Button>
          <span className="text-sm">
            Page {data.page} of {data.pages}
          </span>
          <Button
            variant="secondary"
            disabled={data.page >= data.pages || view.busy}
            onClick={() => sheet.send({ type: 'sheet.page', page: data.page + 1 })}
          >
            Next
          </Button>
        </nav>
      )}
      <ConfirmDialog
        open={view.asking}
        title="Leave marks not saved yet?"
        confirmLabel="Leave them"
        onCancel={() => sheet.send({ type: 'sheet.leave.cancel' })}
        onConfirm={() => sheet.send({ type: 'sheet.leave.confirm' })}
      >
        <p>
          {view.unsaved} {view.unsaved === 1 ? 'row has' : 'rows have'} marks not saved yet. Stay, and they
          are saved in a moment.
        </p>
      </ConfirmDialog>
    </div>
  );
}

const candidateCell = (row: MarkRow | InCourseRow) => (
  <th scope="row" className="px-2 py-1 text-left font-normal">
    <span className="font-mono text-xs">{row.candidate_index}</span>
    <span className="block">{row.name}</span>
  </th>
);

function ShownRow({ row, fields }: { row: MarkRow | InCourseRow; fields: string[] }) {
  const record = row as unknown as Record<string, string | boolean>;
  return (
    <tr className="border-t border-slate-100">
      {candidateCell(row)}
      {fields.map((field) => (
        <td key={field} className="px-2 py-1 tabular-nums">
          {field === 'absent' ? (record.absent ? 'Absent' : '') : String(record[field] ?? '')}
        </td>
      ))}
      <td className="px-2 py-1 font-semibold tabular-nums">{row.total_score}</td>
      <td />
    </tr>
  );
}

function EditableRow({
  index,
  row,
  fields,
  page,
  actor,
}: {
  index: number;
  row: MarkRow | InCourseRow;
  fields: string[];
  page: GridPage<MarkRow | InCourseRow>;
  actor: RowActor;
}) {
  const view = useSelector(actor, (s) => ({
    draft: s.context.draft,
    errors: s.context.errors,
    unsaved: s.hasTag('unsaved'),
    saving: s.hasTag('saving'),
    conflict: s.hasTag('conflict'),
    failed: s.matches('failed'),
    theirs: s.context.theirs,
    failure: s.context.failure,
  }));
  const absent = view.draft.absent === true;
  const total =
    page.grid === 'in-course'
      ? inCourseTotal(SEMESTERS.map((s) => parseMark(String(view.draft[s] ?? '')) ?? null))
      : page.rules
        ? totalOf(page.rules, {
            marks: QUESTIONS.map((q) => parseMark(String(view.draft[q] ?? '')) ?? null),
            absent,
          })
        : null;
  // Leaving the row (to another row, or out of the grid) saves it now.
  const leave = (event: FocusEvent<HTMLTableRowElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) actor.send({ type: 'row.commit' });
  };
  const who = row.candidate_index ?? row.name;
  const status = view.conflict
    ? 'Changed elsewhere'
    : view.saving
      ? 'Saving…'
      : view.failed
        ? 'Not saved: retrying'
        : view.unsaved
          ? 'Not saved yet'
          : 'Saved';
  return (
    <>
      <tr
        className={`border-t border-slate-100 ${view.unsaved ? 'bg-amber-50' : ''}`}
        onBlur={leave}
        data-testid={`grid-row-${row.candidate_id}`}
      >
        {candidateCell(row)}
        {fields.map((field, col) => {
          const error = view.errors[field];
          const limit = page.rules?.q_max[QUESTIONS.indexOf(field as never)];
          if (field === 'absent') {
            return (
              <td key={field} className="px-2 py-1 text-center">
                <input
                  type="checkbox"
                  aria-label={`Absent: ${who}`}
                  checked={absent}
                  data-row={index}
                  data-col={col}
                  onChange={(event) =>
                    actor.send({ type: 'row.edit', field, value: event.currentTarget.checked })
                  }
                />
              </td>
            );
          }
          const unused = field.startsWith('q') && limit === 0;
          return (
            <td key={field} className="px-1 py-1 align-top">
              <input
                type="text"
                inputMode="decimal"
                autoComplete="off"
                aria-label={`${cellLabel(field)}: ${who}`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `err-${row.candidate_id}-${field}` : undefined}
                value={String(view.draft[field] ?? '')}
                disabled={absent || unused}
                data-row={index}
                data-col={col}
                onChange={(event) =>
                  actor.send({ type: 'row.edit', field, value: event.currentTarget.value })
                }
                className={`w-16 rounded border px-2 py-1 text-right tabular-nums ${error ? 'border-red-600' : 'border-slate-300'}`}
              />
              {error && (
                <span
                  id={`err-${row.candidate_id}-${field}`}
                  className="block max-w-[8rem] text-xs text-red-700"
                >
                  {error}
                </span>
              )}
            </td>
          );
        })}
        <td className="px-2 py-1 font-semibold tabular-nums" aria-label={`Total: ${who}`}>
          {absent ? 'Absent' : formatMark(total)}
        </td>
        <td className="px-2 py-1 text-xs text-slate-600" aria-live="polite">
          {status}
        </td>
      </tr>
      {view.failure && !view.conflict && !Object.keys(view.failure.fields).length && (
        <tr>
          <td colSpan={fields.length + 3} className="px-2 pb-2 text-sm text-red-700">
            {view.failure.message}
          </td>
        </tr>
      )}
      {view.conflict && view.theirs && (
        <tr>
          <td colSpan={fields.length + 3} className="bg-amber-100 px-2 py-2 text-sm">
            <p>
              These marks were changed elsewhere since you loaded them. Saved now:{' '}
              <strong>
                {fields
                  .map(
                    (f) =>
                      `${cellLabel(f)} ${f === 'absent' ? (view.theirs!.values[f] ? 'yes' : 'no') : view.theirs!.values[f] || '–'}`,
                  )
                  .join(', ')}
              </strong>
              . Yours are in the row above.
            </p>
            <div className="mt-1 flex gap-2">
              <Button variant="secondary" onClick={() => actor.send({ type: 'row.keepMine' })}>
                Keep mine
              </Button>
              <Button variant="secondary" onClick={() => actor.send({ type: 'row.keepTheirs' })}>
                Keep the saved marks
              </Button>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
