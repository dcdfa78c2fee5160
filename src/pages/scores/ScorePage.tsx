import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useDeferredValue, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import type { ApiFailure } from '../../../contract/envelope';
import { formatDateTime } from '../../../contract/format';
import { RESULTS_LISTS } from '../../../contract/lists';
import type { Role } from '../../../contract/roles';
import {
  GRID_LABELS,
  RESULT_OUTCOMES,
  RESULT_OUTCOME_LABELS,
  SHEET_STATE_LABELS,
  thirdMarkerNotNow,
  type Grid,
  type ImportReport,
  type PaperRow,
  type ResultRow,
  type SheetRow,
  type UserRef,
} from '../../../contract/scores';
import { formatGradeBands } from '../../../contract/scores.validators';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import {
  importMarks,
  loadCourseScoring,
  loadPublications,
  loadReconciliation,
  loadSheets,
  publicationAction,
  resultActions,
  saveHold,
  savePaper,
  saveRules,
  saveSheet,
  setMarkerThree,
} from '../../api/scores';
import { useSession } from '../../app/actors';
import { useFormOptions } from '../../app/formOptions';
import { useNotify } from '../../app/notify';
import { forgetResource, useResource } from '../../app/resource';
import { Alert, Button, SelectField, TextField } from '../../ui/controls';
import { ListTable, ListView, SearchForm } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { PageTabs } from '../../ui/PageTabs';
import type { ListRef } from '../../ui/StatusToggle';
import { useDietChoices } from '../diets/DietField';
import { useList } from '../pagedList';
import { openSheet } from './openSheets';
import { SheetGrid } from './SheetGrid';

/**
 * Score entry (spec: /score, admin) and results. The board sets each course header's papers and result
 * rules, opens score sheets with their markers, and each marker enters their grid (machines/
 * scoreSheet.machine.ts drives a sheet; this view renders it); flagged scripts go to a third marker;
 * the sheet is locked; results are computed, published per diet and course header, and withdrawn. A
 * school admin reads its own candidates' published results (under Registered Candidates).
 */

const useRole = () => useSession((s) => s.context.user?.user_role ?? null) as Role | null;
const useUserId = () => useSession((s) => s.context.user?.id ?? 0);

function ScoreTabs({ current }: { current: 'sheets' | 'papers' | 'results' }) {
  return (
    <PageTabs
      label="Score entry"
      tabs={[
        { href: '/score', label: 'Score sheets', current: current === 'sheets' },
        { href: '/score/papers', label: 'Papers and result rules', current: current === 'papers' },
        { href: '/score/results', label: 'Results', current: current === 'results' },
      ]}
    />
  );
}

/** Toasts a one-off action's sentence, or its refusal. */
async function tell(work: Promise<{ message?: string }>) {
  const { showToast } = await import('../../app/toasts');
  try {
    const { message } = await work;
    showToast({ type: 'notify', tone: 'success', message: message ?? 'Saved' });
    return true;
  } catch (error) {
    showToast({
      type: 'notify',
      tone: 'error',
      message: (error as { message?: string }).message ?? 'Something went wrong.',
    });
    return false;
  }
}

/** The diet a page shows, from the address bar (`?diet=`), or the current one. */
function useDiet(): [string, (code: string) => void] {
  const search = new URLSearchParams(useSearch());
  const diets = useDietChoices('admin');
  const [location, navigate] = useLocation();
  const chosen = search.get('diet') ?? diets.find((d) => d.current)?.code ?? diets[0]?.code ?? '';
  return [chosen, (code) => navigate(`${location}?diet=${encodeURIComponent(code)}`)];
}

function DietPicker({ diet, onChange }: { diet: string; onChange: (code: string) => void }) {
  const diets = useDietChoices('admin');
  return (
    <div className="w-72 max-w-full">
      <SelectField
        label="Diet"
        name="diet"
        id="score-diet"
        value={diet}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {diets.map((d) => (
          <option key={d.code} value={d.code}>
            {d.name} ({d.code}){d.current ? ', current' : ''}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------------
// Score sheets.

export default function SheetsPage() {
  return (
    <section>
      <ScoreTabs current="sheets" />
      <h1 className="text-2xl font-semibold">Score Entry</h1>
      <Suspense fallback={<p className="text-slate-600">Loading the sheets…</p>}>
        <Sheets />
      </Suspense>
    </section>
  );
}

function Sheets() {
  const [diet, setDiet] = useDiet();
  const [round, setRound] = useState(0);
  const key = `score-sheets:${diet}:${round}`;
  const { sheets, markers } = useResource(key, () => loadSheets(diet));
  const refresh = () => {
    forgetResource(key);
    setRound((n) => n + 1);
  };
  const dialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await saveSheet(input);
          refresh();
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Score sheet created' } },
  );
  useNotify(dialog);
  const userId = useUserId();
  return (
    <>
      <div className="my-4 flex flex-wrap items-end justify-between gap-4">
        <DietPicker diet={diet} onChange={setDiet} />
        <Button onClick={() => dialog.send({ type: 'form.open', subject: null })}>Add a score sheet</Button>
      </div>
      <ListTable
        head={['Course header', 'Paper', 'State', 'Markers', 'Candidates', 'Grids']}
        busy={false}
        empty="This diet has no score sheets yet."
        isEmpty={sheets.length === 0}
      >
        {sheets.map((sheet) => (
          <tr key={sheet.id} data-testid={`sheet-${sheet.id}`}>
            <th scope="row" className="px-4 py-2 text-left font-mono">
              {sheet.course_header.code}
              {sheet.school && <span className="block text-xs font-normal">{sheet.school.code} only</span>}
            </th>
            <td className="px-4 py-2">{sheet.paper?.name ?? 'In-course'}</td>
            <td className="px-4 py-2">
              {SHEET_STATE_LABELS[sheet.state]}
              {sheet.flagged > 0 && (
                <span className="block text-xs text-amber-800">{sheet.flagged} for a third marker</span>
              )}
            </td>
            <td className="px-4 py-2 text-sm">
              {[sheet.marker_one, sheet.marker_two, sheet.marker_three]
                .map((m, i) => (m ? `${i + 1}: ${m.name}${m.id === userId ? ' (you)' : ''}` : null))
                .filter(Boolean)
                .join('; ')}
              {thirdMarkerNotNow(sheet) === null && !sheet.marker_three && (
                <MarkerThreePicker sheet={sheet} markers={markers} onSet={refresh} />
              )}
            </td>
            <td className="px-4 py-2 tabular-nums">{sheet.candidates}</td>
            <td className="px-4 py-2">
              <div className="flex flex-wrap gap-2">
                {gridsOf(sheet).map((grid) => (
                  <Link
                    key={grid}
                    href={`/score/sheet?sheet=${sheet.id}&grid=${grid}`}
                    className="text-brand-700 underline-offset-2 hover:underline"
                  >
                    {GRID_LABELS[grid]}
                    <span className="sr-only">
                      {' '}
                      of {sheet.course_header.code} {sheet.paper?.name ?? 'in-course'}
                    </span>
                  </Link>
                ))}
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      <SheetDialog dialog={dialog} diet={diet} markers={markers} />
    </>
  );
}

const gridsOf = (sheet: SheetRow): Grid[] =>
  sheet.kind === 'in_course' ? ['in-course'] : sheet.marker_three ? ['one', 'two', 'three'] : ['one', 'two'];

function MarkerThreePicker({
  sheet,
  markers,
  onSet,
}: {
  sheet: SheetRow;
  markers: UserRef[];
  onSet: () => void;
}) {
  const choices = markers.filter((m) => m.id !== sheet.marker_one?.id && m.id !== sheet.marker_two?.id);
  return (
    <form
      className="mt-2 flex items-end gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        const id = Number(new FormData(event.currentTarget).get('marker_three'));
        if (await tell(setMarkerThree(sheet.id, id))) onSet();
      }}
    >
      <SelectField label="Third marker" name="marker_three" id={`marker-three-${sheet.id}`}>
        {choices.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectField>
      <Button type="submit" variant="secondary">
        Set
      </Button>
    </form>
  );
}

function SheetDialog({ dialog, diet, markers }: { dialog: FormDialogRef; diet: string; markers: UserRef[] }) {
  const options = useFormOptions();
  const [kind, setKind] = useState<'exam' | 'in_course'>('exam');
  const [course, setCourse] = useState(options.course_headers[0]?.code ?? '');
  return (
    <PageFormDialog
      actor={dialog}
      title="Add a score sheet"
      submitLabel="Create"
      busyLabel="Creating…"
      closeLabel="Cancel"
    >
      {(error) => (
        <>
          <input type="hidden" name="diet" value={diet} />
          <SelectField
            label="Kind"
            name="kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as 'exam')}
          >
            <option value="exam">Exam paper (two markers)</option>
            <option value="in_course">In-course scores</option>
          </SelectField>
          <SelectField
            label="Course header"
            name="course_header"
            value={course}
            onChange={(e) => setCourse(e.currentTarget.value)}
            error={error('course_header')}
          >
            {options.course_headers.map((h) => (
              <option key={h.code} value={h.code}>
                {h.code}: {h.title}
              </option>
            ))}
          </SelectField>
          {kind === 'exam' && (
            <Suspense fallback={<p className="text-sm text-slate-500">Loading papers…</p>}>
              <PaperChoice course={course} error={error('paper_id')} />
            </Suspense>
          )}
          <TextField
            label="School code (empty: every school)"
            name="school"
            autoComplete="off"
            error={error('school')}
          />
          <SelectField
            label={kind === 'exam' ? 'Marker one' : 'Entered by'}
            name="marker_one"
            error={error('marker_one')}
          >
            {markers.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </SelectField>
          {kind === 'exam' && (
            <SelectField
              label="Marker two"
              name="marker_two"
              defaultValue={markers[1]?.id}
              error={error('marker_two')}
            >
              {markers.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </SelectField>
          )}
        </>
      )}
    </PageFormDialog>
  );
}

function PaperChoice({ course, error }: { course: string; error?: string }) {
  const scoring = useResource(`score-course:${course}`, () => loadCourseScoring(course));
  return (
    <SelectField
      label="Paper"
      name="paper_id"
      error={error}
      hint={scoring.papers.length ? undefined : 'Set this course header’s papers first.'}
    >
      {scoring.papers.map((paper) => (
        <option key={paper.id} value={paper.id}>
          {paper.name}
        </option>
      ))}
    </SelectField>
  );
}

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
            sheetId={sheetId}
            version={data!.sheet.version}
            flagged={data!.sheet.flagged}
            saves={saves}
          />
        </Suspense>
      )}
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
  const [result, setResult] = useState<{
    report: ImportReport | null;
    message: string;
    tone: 'info' | 'error';
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (form: HTMLFormElement, dryRun: boolean) => {
    setBusy(true);
    try {
      const { report, message } = await importMarks(sheetId, grid, new FormData(form), dryRun);
      setResult({ report, message: message ?? '', tone: 'info' });
      if (!dryRun) onImported();
    } catch (error) {
      const failure = error as ApiFailure;
      setResult({
        report: null,
        message: Object.values(failure.fields ?? {})[0]?.[0] ?? failure.message,
        tone: 'error',
      });
    } finally {
      setBusy(false);
    }
  };
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
          void run(event.currentTarget, true);
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
        <Button type="submit" variant="secondary" busy={busy} busyLabel="Checking…">
          Check the file
        </Button>
        <Button
          type="button"
          disabled={busy || !result?.report?.good}
          onClick={(event) => void run(event.currentTarget.form!, false)}
        >
          Import the good rows
        </Button>
      </form>
      {result && (
        <div className="mt-3" role="status">
          <Alert tone={result.tone}>{result.message}</Alert>
          {result.report && result.report.bad > 0 && (
            <ul className="mt-2 list-disc pl-5 text-sm text-red-800">
              {result.report.rows
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
  sheetId,
  version,
  flagged,
  saves,
}: {
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
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------
// Papers and result rules.

export function PapersPage() {
  return (
    <section>
      <ScoreTabs current="papers" />
      <h1 className="text-2xl font-semibold">Papers and result rules</h1>
      <Suspense fallback={<p className="text-slate-600">Loading…</p>}>
        <Papers />
      </Suspense>
    </section>
  );
}

function Papers() {
  const options = useFormOptions();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const course = search.get('course_header') ?? options.course_headers[0]?.code ?? '';
  const [round, setRound] = useState(0);
  const key = `score-course:${course}`;
  const refresh = () => {
    forgetResource(key);
    setRound((n) => n + 1);
  };
  const paperDialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await savePaper(input);
          refresh();
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Paper saved' } },
  );
  useNotify(paperDialog);
  return (
    <>
      <div className="my-4 w-72 max-w-full">
        <SelectField
          label="Course header"
          name="course_header"
          id="papers-course"
          value={course}
          onChange={(e) => navigate(`/score/papers?course_header=${e.currentTarget.value}`)}
        >
          {options.course_headers.map((h) => (
            <option key={h.code} value={h.code}>
              {h.code}: {h.title}
            </option>
          ))}
        </SelectField>
      </div>
      <Suspense key={`${course}:${round}`} fallback={<p className="text-slate-600">Loading the papers…</p>}>
        <CourseScoringView course={course} dialog={paperDialog} onChange={refresh} />
      </Suspense>
      <PaperDialog dialog={paperDialog} course={course} />
    </>
  );
}

function CourseScoringView({
  course,
  dialog,
  onChange,
}: {
  course: string;
  dialog: FormDialogRef;
  onChange: () => void;
}) {
  const scoring = useResource(`score-course:${course}`, () => loadCourseScoring(course));
  return (
    <div className="space-y-8">
      <div>
        <div className="flex items-center justify-between gap-4">
          <h2 className="text-lg font-semibold">Papers</h2>
          <Button onClick={() => dialog.send({ type: 'form.open', subject: null })}>Add a paper</Button>
        </div>
        <ListTable
          head={['Paper', 'Q1 to Q5 out of', 'Tolerance (question / total)', 'Sheets', 'Actions']}
          busy={false}
          empty="No paper yet."
          isEmpty={scoring.papers.length === 0}
        >
          {scoring.papers.map((paper) => (
            <tr key={paper.id}>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                {paper.name}
              </th>
              <td className="px-4 py-2 tabular-nums">{paper.q_max.join(' · ')}</td>
              <td className="px-4 py-2 tabular-nums">
                {paper.tolerance_question} / {paper.tolerance_total}
              </td>
              <td className="px-4 py-2">{paper.sheets}</td>
              <td className="px-4 py-2">
                <Button variant="link" onClick={() => dialog.send({ type: 'form.open', subject: paper })}>
                  Edit<span className="sr-only"> {paper.name}</span>
                </Button>
              </td>
            </tr>
          ))}
        </ListTable>
      </div>
      <form
        className="max-w-xl space-y-3"
        aria-labelledby="rules-heading"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const values = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
          if (await tell(saveRules({ ...values, course_header: course }))) onChange();
        }}
      >
        <h2 id="rules-heading" className="text-lg font-semibold">
          Result rules
        </h2>
        <TextField
          label="In-course share of the final mark (%)"
          name="in_course_weight"
          inputMode="numeric"
          defaultValue={String(scoring.rules.in_course_weight)}
        />
        <TextField
          label="Pass mark (%)"
          name="pass_mark"
          inputMode="numeric"
          defaultValue={String(scoring.rules.pass_mark)}
        />
        <TextField
          label="Grade bands"
          name="grade_bands"
          defaultValue={formatGradeBands(scoring.rules.grade_bands)}
          hint="Each grade and its lowest mark, highest first, the last from 0: A 70, B 60, C 50, F 0"
        />
        <Button type="submit">Save the rules</Button>
      </form>
    </div>
  );
}

function PaperDialog({ dialog, course }: { dialog: FormDialogRef; course: string }) {
  const paper = useDialogSubject<PaperRow>(dialog);
  return (
    <PageFormDialog
      actor={dialog}
      title={paper ? `Edit ${paper.name}` : 'Add a paper'}
      submitLabel="Save"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(error) => (
        <>
          {paper && <input type="hidden" name="id" value={paper.id} />}
          <input type="hidden" name="course_header" value={course} />
          <TextField
            label="Name"
            name="name"
            defaultValue={paper?.name}
            autoComplete="off"
            error={error('name')}
          />
          <fieldset className="grid grid-cols-5 gap-2">
            <legend className="text-sm font-medium text-slate-700">
              Each question out of (0: no such question)
            </legend>
            {(['q1', 'q2', 'q3', 'q4', 'q5'] as const).map((q, i) => (
              <TextField
                key={q}
                label={q.toUpperCase()}
                name={`${q}_max`}
                inputMode="decimal"
                defaultValue={paper?.q_max[i] ?? '20'}
                error={error(`${q}_max`)}
              />
            ))}
          </fieldset>
          <TextField
            label="Tolerance on a question"
            name="tolerance_question"
            inputMode="decimal"
            defaultValue={paper?.tolerance_question ?? '2'}
            error={error('tolerance_question')}
          />
          <TextField
            label="Tolerance on the total"
            name="tolerance_total"
            inputMode="decimal"
            defaultValue={paper?.tolerance_total ?? '5'}
            error={error('tolerance_total')}
            hint="Marks further apart than these go to a third marker."
          />
        </>
      )}
    </PageFormDialog>
  );
}

// ---------------------------------------------------------------------------------------------------
// Results (the board's).

export function ResultsPage() {
  return (
    <section>
      <ScoreTabs current="results" />
      <h1 className="text-2xl font-semibold">Results</h1>
      <Suspense fallback={<p className="text-slate-600">Loading…</p>}>
        <BoardResults />
      </Suspense>
    </section>
  );
}

function BoardResults() {
  const [diet, setDiet] = useDiet();
  const [round, setRound] = useState(0);
  const key = `score-publications:${diet}:${round}`;
  const publications = useResource(key, () => loadPublications(diet));
  const list = useList(RESULTS_LISTS.admin, { act: resultActions });
  const refresh = () => {
    forgetResource(key);
    setRound((n) => n + 1);
    list.send({ type: 'list.refresh' });
  };
  const holdDialog = useActorRef(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          const saved = await saveHold(input);
          refresh();
          return saved;
        }),
      },
    }),
    { input: { successMessage: 'Result held' } },
  );
  useNotify(holdDialog);
  const filters = useSelector(list, (s) => s.context.query.filters);
  return (
    <>
      <div className="my-4">
        <DietPicker diet={diet} onChange={setDiet} />
      </div>
      <h2 className="text-lg font-semibold">Publication</h2>
      <ListTable
        head={['Course header', 'Sheets locked', 'Results', 'Published', 'Actions']}
        busy={false}
        empty="This diet has no score sheets yet."
        isEmpty={publications.length === 0}
      >
        {publications.map((p) => (
          <tr key={p.course_header.id} data-testid={`publication-${p.course_header.code}`}>
            <th scope="row" className="px-4 py-2 text-left font-mono">
              {p.course_header.code}
            </th>
            <td className="px-4 py-2">
              {p.locked} of {p.sheets}
            </td>
            <td className="px-4 py-2">{p.results}</td>
            <td className="px-4 py-2">{p.published_at ? formatDateTime(p.published_at) : 'Not published'}</td>
            <td className="px-4 py-2">
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  onClick={async () =>
                    (await tell(publicationAction('compute', diet, p.course_header.code))) && refresh()
                  }
                >
                  Compute<span className="sr-only"> {p.course_header.code}</span>
                </Button>
                {p.published_at ? (
                  <Button
                    variant="danger"
                    onClick={async () =>
                      (await tell(publicationAction('withdraw', diet, p.course_header.code))) && refresh()
                    }
                  >
                    Withdraw<span className="sr-only"> {p.course_header.code}</span>
                  </Button>
                ) : (
                  <Button
                    disabled={p.locked < p.sheets}
                    onClick={async () =>
                      (await tell(publicationAction('publish', diet, p.course_header.code))) && refresh()
                    }
                  >
                    Publish<span className="sr-only"> {p.course_header.code}</span>
                  </Button>
                )}
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      <div className="mt-8 flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-lg font-semibold">Results</h2>
        <Button variant="secondary" onClick={() => holdDialog.send({ type: 'form.open', subject: null })}>
          Hold a result
        </Button>
      </div>
      <ResultFilters
        filters={filters}
        onSearch={(f) => list.send({ type: 'list.filter', filters: f })}
        board
      />
      <ListView<ResultRow> list={list} definition={RESULTS_LISTS.admin}>
        {(page, busy) => <ResultTable rows={page.items} busy={busy} list={list} />}
      </ListView>
      <PageFormDialog
        actor={holdDialog}
        title="Hold a result"
        submitLabel="Hold"
        busyLabel="Holding…"
        closeLabel="Cancel"
      >
        {(error) => (
          <>
            <input type="hidden" name="diet" value={diet} />
            <TextField
              label="Index number"
              name="candidate_index"
              autoComplete="off"
              error={error('candidate_index')}
            />
            <TextField
              label="Reason"
              name="reason"
              autoComplete="off"
              error={error('reason')}
              hint="The school sees it."
            />
          </>
        )}
      </PageFormDialog>
    </>
  );
}

function ResultFilters({
  filters,
  onSearch,
  board = false,
}: {
  filters: Record<string, string>;
  onSearch: (filters: Record<string, string>) => void;
  board?: boolean;
}) {
  return (
    <SearchForm className="my-4 flex flex-wrap items-end gap-3" onSearch={onSearch} label="Find results">
      <div className="w-56 max-w-full">
        <TextField
          label="Name or index number"
          name="search"
          type="search"
          defaultValue={filters.search ?? ''}
        />
      </div>
      <div className="w-32">
        <TextField
          label="Diet code"
          name="diet"
          id="results-diet"
          defaultValue={filters.diet ?? ''}
          autoComplete="off"
        />
      </div>
      <div className="w-32">
        <TextField
          label="Course header"
          name="course_header"
          id="results-course"
          defaultValue={filters.course_header ?? ''}
          autoComplete="off"
        />
      </div>
      <div className="w-36">
        <SelectField label="Outcome" name="outcome" id="results-outcome" defaultValue={filters.outcome ?? ''}>
          <option value="">Any outcome</option>
          {RESULT_OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {RESULT_OUTCOME_LABELS[o]}
            </option>
          ))}
        </SelectField>
      </div>
      {board && (
        <div className="w-32">
          <TextField
            label="School code"
            name="school"
            id="results-school"
            defaultValue={filters.school ?? ''}
            autoComplete="off"
          />
        </div>
      )}
    </SearchForm>
  );
}

/** The results of a page; given the board's list, its rows show the school and release a hold. */
function ResultTable({ rows, busy, list }: { rows: ResultRow[]; busy: boolean; list?: ListRef }) {
  const board = list !== undefined;
  return (
    <ListTable
      head={[
        'Candidate',
        'Diet',
        'Exam',
        'In-course',
        'Final',
        'Grade',
        'Outcome',
        ...(board ? ['Published'] : []),
      ]}
      busy={busy}
      empty="No result matches."
      isEmpty={rows.length === 0}
    >
      {rows.map((row) => (
        <tr key={row.id} data-testid={`result-${row.candidate_id}`}>
          <th scope="row" className="px-4 py-2 text-left font-normal">
            <span className="font-mono text-xs">{row.candidate_index}</span>
            <span className="block">{row.name}</span>
            {board && <span className="block text-xs text-slate-500">{row.school_code}</span>}
          </th>
          <td className="px-4 py-2 font-mono text-xs">
            {row.diet.code} {row.course_header.code}
          </td>
          <td className="px-4 py-2 tabular-nums">{row.exam_mark}</td>
          <td className="px-4 py-2 tabular-nums">{row.in_course_mark}</td>
          <td className="px-4 py-2 font-semibold tabular-nums">{row.final_mark}</td>
          <td className="px-4 py-2">{row.grade}</td>
          <td className="px-4 py-2">
            {RESULT_OUTCOME_LABELS[row.outcome]}
            {row.note && <span className="block text-xs text-slate-600">{row.note}</span>}
            {list && row.hold_id !== null && (
              <Button
                variant="link"
                disabled={busy}
                onClick={() =>
                  list.send({ type: 'list.act', action: 'release', payload: { hold: row.hold_id } })
                }
              >
                Release the hold<span className="sr-only"> on {row.candidate_index}</span>
              </Button>
            )}
          </td>
          {board && <td className="px-4 py-2">{row.published ? 'Yes' : 'No'}</td>}
        </tr>
      ))}
    </ListTable>
  );
}

// ---------------------------------------------------------------------------------------------------
// A school's results (under Registered Candidates).

export function SchoolResultsPage() {
  const role = useRole();
  const list = useList(RESULTS_LISTS.school_admin);
  const filters = useSelector(list, (s) => s.context.query.filters);
  if (role !== 'school_admin') return null;
  return (
    <section>
      <PageTabs
        label="Registered Candidates"
        tabs={[
          { href: '/candidate/candidate-registered', label: 'Registered Candidates', current: false },
          { href: '/candidate/candidate-registered/results', label: 'Results', current: true },
        ]}
      />
      <h1 className="text-2xl font-semibold">Results</h1>
      <p className="text-slate-600">Your candidates’ results, as the board publishes them.</p>
      <ResultFilters filters={filters} onSearch={(f) => list.send({ type: 'list.filter', filters: f })} />
      <ListView<ResultRow> list={list} definition={RESULTS_LISTS.school_admin}>
        {(page, busy) => <ResultTable rows={page.items} busy={busy} />}
      </ListView>
    </section>
  );
}
