import { Suspense } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SCORE_MESSAGES, type CourseScoring, type PaperRow } from '../../../contract/scores';
import { formatGradeBands } from '../../../contract/scores.validators';
import { loadCourseScoring, savePaper, saveRules } from '../../api/scores';
import { useFormOptions } from '../../app/formOptions';
import { reloadResource, useReloadable } from '../../app/resource';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';
import { ScoreTabs } from './scoreShared';

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
  const reload = () => reloadResource(scoringKey(course));
  const paperDialog = useSavingDialog(savePaper, 'Paper saved', reload);
  const rulesDialog = useSavingDialog(saveRules, SCORE_MESSAGES.rulesSaved, reload);
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
      <Suspense key={course} fallback={<p className="text-slate-600">Loading the papers…</p>}>
        <CourseScoringView course={course} dialog={paperDialog} rulesDialog={rulesDialog} />
      </Suspense>
      <PaperDialog dialog={paperDialog} course={course} />
      <RulesDialog dialog={rulesDialog} course={course} />
    </>
  );
}

/** A course header's papers and rules, read again after either dialog saves. */
const scoringKey = (course: string) => `score-course:${course}`;

function CourseScoringView({
  course,
  dialog,
  rulesDialog,
}: {
  course: string;
  dialog: FormDialogRef;
  rulesDialog: FormDialogRef;
}) {
  const [scoring] = useReloadable(scoringKey(course), () => loadCourseScoring(course));
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
      <section className="max-w-xl space-y-3" aria-labelledby="rules-heading">
        <div className="flex items-center justify-between gap-4">
          <h2 id="rules-heading" className="text-lg font-semibold">
            Result rules
          </h2>
          <Button
            variant="secondary"
            onClick={() => rulesDialog.send({ type: 'form.open', subject: scoring.rules })}
          >
            Edit the rules
          </Button>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-medium text-slate-700">In-course share of the final mark</dt>
          <dd className="tabular-nums">{scoring.rules.in_course_weight}%</dd>
          <dt className="font-medium text-slate-700">Pass mark</dt>
          <dd className="tabular-nums">{scoring.rules.pass_mark}%</dd>
          <dt className="font-medium text-slate-700">Grade bands</dt>
          <dd>{formatGradeBands(scoring.rules.grade_bands)}</dd>
        </dl>
      </section>
    </div>
  );
}

function RulesDialog({ dialog, course }: { dialog: FormDialogRef; course: string }) {
  const rules = useDialogSubject<CourseScoring['rules']>(dialog);
  return (
    <PageFormDialog
      actor={dialog}
      title={`Result rules of ${course}`}
      submitLabel="Save the rules"
      busyLabel="Saving…"
      closeLabel="Cancel"
    >
      {(error) =>
        rules && (
          <>
            <input type="hidden" name="course_header" value={course} />
            <TextField
              label="In-course share of the final mark (%)"
              name="in_course_weight"
              inputMode="numeric"
              defaultValue={String(rules.in_course_weight)}
              error={error('in_course_weight')}
            />
            <TextField
              label="Pass mark (%)"
              name="pass_mark"
              inputMode="numeric"
              defaultValue={String(rules.pass_mark)}
              error={error('pass_mark')}
            />
            <TextField
              label="Grade bands"
              name="grade_bands"
              defaultValue={formatGradeBands(rules.grade_bands)}
              error={error('grade_bands')}
              hint="Each grade and its lowest mark, highest first, the last from 0: A 70, B 60, C 50, F 0"
            />
          </>
        )
      }
    </PageFormDialog>
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
