import { useSelector } from '@xstate/react';
import { useLiveActorRef } from '../../app/useLiveActorRef';
import { fromPromise } from 'xstate';
import { Suspense, useDeferredValue } from 'react';
import { Link, useSearch } from 'wouter';
import { GRID_LABELS, type Grid } from '../../../contract/scores';
import { marksImportMachine } from '../../../machines/marksImport.machine';
import { importMarks, loadReconciliation } from '../../api/scores';
import { useResource } from '../../app/resource';
import { Alert, Button, TextField } from '../../ui/controls';
import { ListTable } from '../../ui/ListView';
import { openSheet, type SheetActor } from './openSheets';
import { LockDialog } from './SheetDialogs';
import { SheetGrid } from './SheetGrid';
import { ScoreTabs, useUserId } from './scoreShared';
import { History } from '../auditTrail/History';

// ---------------------------------------------------------------------------------------------------
// One sheet's grid.

export function SheetPage() {
  const search = new URLSearchParams(useSearch());
  const sheetId = Number(search.get('sheet'));
  const grid = (search.get('grid') ?? 'one') as Grid;
  const userId = useUserId();
  const valid =
    Number.isInteger(sheetId) && sheetId > 0 && ['one', 'two', 'three', 'in-course'].includes(grid);
  return (
    <section>
      <ScoreTabs current="sheets" />
      <p className="mb-2 text-sm">
        <Link href="/score" className="text-brand-700 underline-offset-2 hover:underline">
          All score sheets
        </Link>
      </p>
      {valid ? (
        <OpenSheet key={`${sheetId}:${grid}`} userId={userId} sheetId={sheetId} grid={grid} />
      ) : (
        <>
          <h1 className="text-2xl font-semibold">Score sheet</h1>
          <Alert tone="error">There is no such score sheet.</Alert>
        </>
      )}
    </section>
  );
}

function OpenSheet({ userId, sheetId, grid }: { userId: number; sheetId: number; grid: Grid }) {
  const sheet = openSheet(userId, sheetId, grid);
  const data = useSelector(sheet, (s) => s.context.data);
  const saves = useSelector(sheet, (s) => s.context.saves);
  const title = data
    ? `${data.sheet.course_header.code} ${data.sheet.paper?.name ?? 'In-course'}, ${data.sheet.diet.code}: ${GRID_LABELS[grid]}`
    : GRID_LABELS[grid];
  const showReconciliation =
    data?.sheet.kind === 'exam' && ['reconciling', 'locked', 'published'].includes(data.sheet.state);
  return (
    <>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <SheetGrid sheet={sheet} />
      {data?.sheet.kind === 'in_course' && <LockDialog sheet={sheet} decided={null} waiting={0} />}
      {data?.editable && grid !== 'three' && (
        <MarksFromPaper
          sheetId={sheetId}
          grid={grid}
          reasonRequired={data.reason_required}
          onImported={() => sheet.send({ type: 'sheet.reload' })}
        />
      )}
      {showReconciliation && (
        <Suspense fallback={<p className="text-slate-600">Loading the scripts out of tolerance…</p>}>
          <Reconciliation
            sheet={sheet}
            sheetId={sheetId}
            version={data!.sheet.version}
            flagged={data!.sheet.flagged}
            saves={saves}
          />
        </Suspense>
      )}
      {/* Score entry is the board's: the sheet's history from the audit trail (marks withheld while blind). */}
      <History entity="score_sheet" id={sheetId} />
    </>
  );
}

/**
 * Marks from paper: the grid's CSV, checked first (a dry run: each row's problems by field), then its
 * good rows saved through the grid's own save. The grid is loaded again afterwards.
 */
function MarksFromPaper({
  sheetId,
  grid,
  reasonRequired,
  onImported,
}: {
  sheetId: number;
  grid: Grid;
  reasonRequired: boolean;
  onImported: () => void;
}) {
  const marks = useLiveActorRef(
    marksImportMachine.provide({
      actors: {
        checkMarks: fromPromise(({ input }) => importMarks(sheetId, grid, input, true)),
        importMarks: fromPromise(async ({ input }) => {
          const answer = await importMarks(sheetId, grid, input, false);
          onImported();
          return answer;
        }),
      },
    }),
  );
  const view = useSelector(marks, (s) => ({
    busy: s.hasTag('busy'),
    canImport: s.can({ type: 'marks.import' }),
    report: s.context.report,
    message: s.context.message,
    failure: s.context.failure,
  }));
  // A refusal's first field message says most (the file is not a CSV, too large), else its sentence.
  const refusal = view.failure && (Object.values(view.failure.fields)[0]?.[0] ?? view.failure.message);
  const columns =
    grid === 'in-course'
      ? 'first_semester_score, second_semester_score, third_semester_score'
      : 'q1 to q5, absent';
  return (
    <section className="mt-8 max-w-2xl" aria-labelledby="paper-marks-heading">
      <h2 id="paper-marks-heading" className="text-lg font-semibold">
        Marks from paper
      </h2>
      <p className="text-sm text-slate-600">
        A CSV with the columns candidate_index, {columns}. Check it first; then import its good rows.
      </p>
      <form
        className="mt-2 flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          marks.send({ type: 'marks.check', form: new FormData(event.currentTarget) });
        }}
      >
        <div className="w-72 max-w-full">
          <label htmlFor="marks-csv" className="block text-sm font-medium text-slate-700">
            Marks CSV
          </label>
          <input
            id="marks-csv"
            name="csv"
            type="file"
            accept=".csv,text/csv"
            className="mt-1 block text-sm"
          />
        </div>
        {reasonRequired && (
          <TextField label="Why these marks change after submission" name="reason" id="import-reason" />
        )}
        <Button type="submit" variant="secondary" busy={view.busy} busyLabel="Checking…">
          Check the file
        </Button>
        <Button type="button" disabled={!view.canImport} onClick={() => marks.send({ type: 'marks.import' })}>
          Import the good rows
        </Button>
      </form>
      {(view.report || refusal) && (
        <div className="mt-3" role="status">
          {refusal ? (
            <Alert tone="error">{refusal}</Alert>
          ) : (
            view.message && <Alert tone="info">{view.message}</Alert>
          )}
          {view.report && view.report.bad > 0 && (
            <ul className="mt-2 list-disc pl-5 text-sm text-red-800">
              {view.report.rows
                .filter((row) => Object.keys(row.problems).length)
                .map((row) => (
                  <li key={row.row}>
                    Row {row.row} ({row.candidate_index || 'no index number'}):{' '}
                    {Object.entries(row.problems)
                      .map(([field, problem]) => `${field}: ${problem}`)
                      .join('; ')}
                  </li>
                ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

function Reconciliation({
  sheet,
  sheetId,
  version,
  flagged,
  saves,
}: {
  /** The sheet's actor: its question before locking counts the scripts the third marker decided here. */
  sheet: SheetActor;
  sheetId: number;
  version: number;
  flagged: number;
  /** Rows saved on this page: each reads the table again (the old one stays until the new one is in). */
  saves: number;
}) {
  const key = useDeferredValue(`score-reconciliation:${sheetId}:${version}:${flagged}:${saves}`);
  const rows = useResource(key, () => loadReconciliation(sheetId));
  const side = (marks: { marks: string[]; absent: boolean; total_score: string } | null) =>
    !marks
      ? '–'
      : marks.absent
        ? 'Absent'
        : `${marks.marks.filter(Boolean).join(' + ')} = ${marks.total_score}`;
  return (
    <section className="mt-8" aria-labelledby="reconciliation-heading">
      <h2 id="reconciliation-heading" className="text-lg font-semibold">
        Scripts out of tolerance
      </h2>
      <p className="text-sm text-slate-600">
        Both marks side by side. The third marker marks each script again; its final mark is the mean of the
        third mark and whichever first mark is nearer to it.
      </p>
      <ListTable
        head={['Candidate', 'Marker one', 'Marker two', 'Third marker', 'Why', 'Final']}
        busy={false}
        empty="No script is out of tolerance."
        isEmpty={rows.length === 0}
      >
        {rows.map((row) => (
          <tr key={row.candidate_id} data-testid={`flagged-${row.candidate_id}`}>
            <th scope="row" className="px-4 py-2 text-left font-normal">
              <span className="font-mono text-xs">{row.candidate_index}</span>
              <span className="block">{row.name}</span>
            </th>
            <td className="px-4 py-2 tabular-nums">{side(row.one)}</td>
            <td className="px-4 py-2 tabular-nums">{side(row.two)}</td>
            <td className="px-4 py-2 tabular-nums">{side(row.three)}</td>
            <td className="px-4 py-2 text-sm">
              {
                { question: 'A question apart', total: 'Totals apart', absence: 'Absent for one marker' }[
                  row.why
                ]
              }
            </td>
            <td className="px-4 py-2 font-semibold tabular-nums">{row.final || 'Waiting'}</td>
          </tr>
        ))}
      </ListTable>
      <LockDialog
        sheet={sheet}
        decided={rows.filter((row) => row.final !== '').length}
        waiting={rows.filter((row) => row.final === '').length}
      />
    </section>
  );
}
