import { shallowEqual, useSelector } from '@xstate/react';
import { memo, useMemo, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
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
import { rowStatus, type markRowMachine } from '../../../machines/markRow.machine';
import { fieldsOf } from '../../../machines/scoreSheet.machine';
import { useNotify } from '../../app/notify';
import { Alert, Button, TextField } from '../../ui/controls';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { SheetActor } from './openSheets';
import { SubmitDialog } from './SheetDialogs';

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
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
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
  // Only what changes with the sheet's state: a row's unsaved work is read by the parts that show it,
  // so the table itself is not drawn again when a row starts or stops being saved.
  const view = useSelector(
    sheet,
    (s) => ({
      failed: s.matches('loadFailed'),
      busy: s.hasTag('busy'),
      data: s.context.data,
      rows: s.context.rows,
      error: s.context.error,
      reason: s.context.reason,
    }),
    shallowEqual,
  );
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
        <SaveStatus sheet={sheet} />
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
      <GridTable data={data} rows={view.rows} />
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
      <LeaveDialog sheet={sheet} />
      <SubmitDialog sheet={sheet} />
    </div>
  );
}

function SaveStatus({ sheet }: { sheet: SheetActor }) {
  const unsaved = useSelector(sheet, (s) => s.context.unsaved.length);
  return (
    <p className="text-sm text-slate-600" aria-live="polite">
      {unsaved ? `${unsaved} ${unsaved === 1 ? 'row' : 'rows'} not saved yet` : 'All marks saved'}
    </p>
  );
}

function LeaveDialog({ sheet }: { sheet: SheetActor }) {
  const asking = useSelector(sheet, (s) => s.matches({ shown: 'askingToLeave' }));
  const unsaved = useSelector(sheet, (s) => s.context.unsaved.length);
  return (
    <ConfirmDialog
      open={asking}
      title="Leave marks not saved yet?"
      confirmLabel="Leave them"
      onCancel={() => sheet.send({ type: 'sheet.leave.cancel' })}
      onConfirm={() => sheet.send({ type: 'sheet.leave.confirm' })}
    >
      <p>
        {unsaved} {unsaved === 1 ? 'row has' : 'rows have'} marks not saved yet. Stay, and they are saved in a
        moment.
      </p>
    </ConfirmDialog>
  );
}

/**
 * The grid: drawn again only when the page changes. It is a grid of ARIA rows and cells rather than a
 * <table>, so each row can be `content-visibility: auto`: the browser lays out and paints the rows on
 * screen only, and a keystroke in a page of 500 rows costs what it costs in a page of 20
 * (docs/performance.md). Every column has a fixed width, so a total or a status changing in one row
 * never makes the browser measure the others.
 */
const GridTable = memo(function GridTable({
  data,
  rows,
}: {
  data: GridPage<MarkRow | InCourseRow>;
  rows: Record<string, unknown>;
}) {
  const { fields } = useMemo(() => fieldsOf(data), [data]);
  const columns = useMemo(
    () => ({
      gridTemplateColumns: `14rem ${fields.map((f) => (f === 'absent' ? '4.5rem' : '5.5rem')).join(' ')} 5rem 8rem`,
    }),
    [fields],
  );
  // `relative`: the cells' screen-reader-only text is placed inside the scrolling box, not past the page.
  return (
    <div className="relative overflow-x-auto">
      <div
        role="table"
        aria-label={`${GRID_LABELS[data.grid]} marks`}
        aria-rowcount={data.rows.length + 1}
        className="w-max text-sm"
        onKeyDown={moveFocus}
      >
        <div role="rowgroup">
          <div role="row" className="grid items-end text-left text-slate-600" style={columns}>
            <div role="columnheader" className="px-2 py-1 font-semibold">
              Candidate
            </div>
            {fields.map((field) => (
              <div key={field} role="columnheader" className="px-1 py-1 font-semibold">
                {cellLabel(field)}
                {field.startsWith('q') && data.rules && (
                  <span className="block text-xs font-normal">
                    of {formatMark(data.rules.q_max[QUESTIONS.indexOf(field as never)])}
                  </span>
                )}
              </div>
            ))}
            <div role="columnheader" className="px-2 py-1 font-semibold">
              Total
            </div>
            <div role="columnheader" className="px-2 py-1">
              <span className="sr-only">Saved</span>
            </div>
          </div>
        </div>
        <div role="rowgroup">
          {data.rows.map((row, index) =>
            data.editable && rows[String(row.candidate_id)] ? (
              <EditableRow
                key={row.candidate_id}
                index={index}
                row={row}
                fields={fields}
                columns={columns}
                page={data}
                actor={rows[String(row.candidate_id)] as RowActor}
              />
            ) : (
              <ShownRow key={row.candidate_id} row={row} fields={fields} columns={columns} />
            ),
          )}
        </div>
      </div>
    </div>
  );
});

/** A row's box: drawn only when on screen (its height kept for the scroll bar while it is not). */
const ROW_CLASS =
  'grid border-t border-slate-100 [content-visibility:auto] [contain-intrinsic-size:auto_3.25rem]';

const candidateCell = (row: MarkRow | InCourseRow) => (
  <div role="rowheader" className="truncate px-2 py-1">
    <span className="font-mono text-xs">{row.candidate_index}</span>
    <span className="block truncate">{row.name}</span>
  </div>
);

function ShownRow({
  row,
  fields,
  columns,
}: {
  row: MarkRow | InCourseRow;
  fields: string[];
  columns: CSSProperties;
}) {
  const record = row as unknown as Record<string, string | boolean>;
  return (
    <div role="row" className={ROW_CLASS} style={columns}>
      {candidateCell(row)}
      {fields.map((field) => (
        <div key={field} role="cell" className="px-2 py-1 tabular-nums">
          {field === 'absent' ? (record.absent ? 'Absent' : '') : String(record[field] ?? '')}
        </div>
      ))}
      <div role="cell" className="px-2 py-1 font-semibold tabular-nums">
        {row.total_score}
      </div>
      <div role="cell" />
    </div>
  );
}

const EditableRow = memo(function EditableRow({
  index,
  row,
  fields,
  columns,
  page,
  actor,
}: {
  index: number;
  row: MarkRow | InCourseRow;
  fields: string[];
  columns: CSSProperties;
  page: GridPage<MarkRow | InCourseRow>;
  actor: RowActor;
}) {
  const view = useSelector(actor, (s) => ({
    draft: s.context.draft,
    errors: s.context.errors,
    unsaved: s.hasTag('unsaved'),
    conflict: s.hasTag('conflict'),
    status: rowStatus(s),
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
  const leave = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) actor.send({ type: 'row.commit' });
  };
  const who = row.candidate_index ?? row.name;
  return (
    <div
      role="row"
      className={`${ROW_CLASS} ${view.unsaved ? 'bg-amber-50' : ''}`}
      style={columns}
      onBlur={leave}
      data-testid={`grid-row-${row.candidate_id}`}
    >
      {candidateCell(row)}
      {fields.map((field, col) => {
        const error = view.errors[field];
        const limit = page.rules?.q_max[QUESTIONS.indexOf(field as never)];
        if (field === 'absent') {
          return (
            <div key={field} role="cell" className="px-2 py-1 text-center">
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
            </div>
          );
        }
        const unused = field.startsWith('q') && limit === 0;
        return (
          <div key={field} role="cell" className="px-1 py-1">
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
              onChange={(event) => actor.send({ type: 'row.edit', field, value: event.currentTarget.value })}
              className={`w-16 rounded border px-2 py-1 text-right tabular-nums ${error ? 'border-red-600' : 'border-slate-300'}`}
            />
            {error && (
              <span id={`err-${row.candidate_id}-${field}`} className="block text-xs text-red-700">
                {error}
              </span>
            )}
          </div>
        );
      })}
      <div role="cell" className="px-2 py-1 font-semibold tabular-nums" aria-label={`Total: ${who}`}>
        {absent ? 'Absent' : formatMark(total)}
      </div>
      <div role="cell" className="px-2 py-1 text-xs text-slate-600" aria-live="polite">
        {view.status}
      </div>
      {view.failure && !view.conflict && !Object.keys(view.failure.fields).length && (
        <p role="cell" className="col-span-full px-2 pb-2 text-sm text-red-700">
          {view.failure.message}
        </p>
      )}
      {view.conflict && view.theirs && (
        <div role="cell" className="col-span-full bg-amber-100 px-2 py-2 text-sm">
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
        </div>
      )}
    </div>
  );
});
