import { Suspense, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import {
  GRID_LABELS,
  SHEET_STATE_LABELS,
  thirdMarkerNotNow,
  type Grid,
  type SheetRow,
  type SheetState,
  type UserRef,
} from '../../../contract/scores';
import { loadCourseScoring, loadSheets, saveSheet, setMarkerThree } from '../../api/scores';
import { useFormOptions } from '../../app/formOptions';
import { useReloadable, useResource } from '../../app/resource';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog, type SaveForm } from '../pagedList';
import { DietPicker, ScoreTabs, useDiet, useUserId } from './scoreShared';

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

/** Which of a diet's sheets to show (`?show=`, as the Dashboard links): all, one state, or those with scripts for a third marker. */
type Show = SheetState | 'third_marker' | '';
const SHOW_LABELS: Record<Exclude<Show, ''>, string> = {
  ...SHEET_STATE_LABELS,
  third_marker: 'Scripts waiting for a third marker',
};
const shows = (sheet: SheetRow, show: Show) =>
  show === '' || (show === 'third_marker' ? sheet.flagged > 0 : sheet.state === show);

function Sheets() {
  const [diet, setDiet] = useDiet();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('show') ?? '';
  const show: Show = Object.hasOwn(SHOW_LABELS, requested) ? (requested as Show) : '';
  const [{ sheets: all, markers }, reload] = useReloadable(`score-sheets:${diet}`, () => loadSheets(diet));
  const sheets = all.filter((sheet) => shows(sheet, show));
  const dialog = useSavingDialog(saveSheet, 'Score sheet created', reload);
  const thirdMarker = useSavingDialog(saveMarkerThree, 'Third marker set', reload);
  const userId = useUserId();
  return (
    <>
      <div className="my-4 flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-wrap items-end gap-4">
          <DietPicker diet={diet} onChange={setDiet} />
          <div className="w-72 max-w-full">
            <SelectField
              label="Show"
              name="show"
              id="score-show"
              value={show}
              onChange={(e) => {
                const query = new URLSearchParams({ diet });
                if (e.currentTarget.value) query.set('show', e.currentTarget.value);
                navigate(`${location}?${query.toString()}`);
              }}
            >
              <option value="">Every sheet</option>
              {Object.entries(SHOW_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
          </div>
        </div>
        <Button onClick={() => dialog.send({ type: 'form.open', subject: null })}>Add a score sheet</Button>
      </div>
      <ListTable
        head={['Course header', 'Paper', 'State', 'Markers', 'Candidates', 'Grids']}
        busy={false}
        empty={
          all.length ? 'No sheet of this diet is shown by this choice.' : 'This diet has no score sheets yet.'
        }
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
                <Button
                  variant="link"
                  className="mt-1 block"
                  onClick={() => thirdMarker.send({ type: 'form.open', subject: sheet })}
                >
                  Set the third marker
                  <span className="sr-only">
                    {' '}
                    of {sheet.course_header.code} {sheet.paper?.name ?? 'in-course'}
                  </span>
                </Button>
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
      <MarkerThreeDialog dialog={thirdMarker} markers={markers} />
    </>
  );
}

const gridsOf = (sheet: SheetRow): Grid[] =>
  sheet.kind === 'in_course' ? ['in-course'] : sheet.marker_three ? ['one', 'two', 'three'] : ['one', 'two'];

/** The board's admins a marker is chosen from, as a select's options. */
function MarkerOptions({ markers }: { markers: UserRef[] }) {
  return markers.map((m) => (
    <option key={m.id} value={m.id}>
      {m.name}
    </option>
  ));
}

/** The third marker's form: a sheet's subject, the board's admins but its two markers to choose from. */
const saveMarkerThree: SaveForm = (values) =>
  setMarkerThree(Number(values.sheet_id), Number(values.marker_three));

function MarkerThreeDialog({ dialog, markers }: { dialog: FormDialogRef; markers: UserRef[] }) {
  const sheet = useDialogSubject<SheetRow>(dialog);
  const choices = markers.filter((m) => m.id !== sheet?.marker_one?.id && m.id !== sheet?.marker_two?.id);
  return (
    <PageFormDialog
      actor={dialog}
      title={`Set the third marker of ${sheet?.course_header.code ?? ''} ${sheet?.paper?.name ?? ''}`.trim()}
      submitLabel="Set"
      busyLabel="Setting…"
      closeLabel="Cancel"
    >
      {(error) =>
        sheet && (
          <>
            <input type="hidden" name="sheet_id" value={sheet.id} />
            <SelectField label="Third marker" name="marker_three" error={error('marker_three')}>
              <MarkerOptions markers={choices} />
            </SelectField>
          </>
        )
      }
    </PageFormDialog>
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
            <MarkerOptions markers={markers} />
          </SelectField>
          {kind === 'exam' && (
            <SelectField
              label="Marker two"
              name="marker_two"
              defaultValue={markers[1]?.id}
              error={error('marker_two')}
            >
              <MarkerOptions markers={markers} />
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
