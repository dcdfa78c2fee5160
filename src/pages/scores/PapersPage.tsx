import { useActorRef } from '@xstate/react';
import { Suspense, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import { type PaperRow } from '../../../contract/scores';
import { formatGradeBands } from '../../../contract/scores.validators';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { loadCourseScoring, savePaper, saveRules } from '../../api/scores';
import { useFormOptions } from '../../app/formOptions';
import { useNotify } from '../../app/notify';
import { forgetResource, useResource } from '../../app/resource';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable } from '../../ui/ListView';
import { PageFormDialog, useDialogSubject, type FormDialogRef } from '../../ui/PageFormDialog';
import { ScoreTabs, tell } from './scoreShared';

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
