import { useActorRef } from '@xstate/react';
import {
  RESIT_LIMITS as L,
  RESIT_MESSAGES,
  RESIT_PAPERS,
  RESIT_PATHS,
  type ResitRow,
} from '../../../contract/resits';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { addResit, resitRowAction } from '../../api/resits';
import { useSession } from '../../app/actors';
import { useNotify } from '../../app/notify';
import { Button, TextField } from '../../ui/controls';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { RemovableList, SearchForm, Td, Th, useRemovableList } from '../removableList';

/**
 * Resit Candidates (/candidate/resit): the board sees every school's entries, a school admin their own
 * school's (the server decides; this page only picks the role's endpoints).
 */

const fullName = (c: ResitRow['candidate']) =>
  [c.first_name, c.middle_name, c.last_name].filter(Boolean).join(' ');

function PapersField({ error }: { error?: string }) {
  return (
    <fieldset aria-describedby={error ? 'papers-error' : undefined}>
      <legend className="text-sm font-medium text-slate-700">Papers to sit again</legend>
      <div className="mt-1 grid grid-cols-2 gap-1 sm:grid-cols-3">
        {RESIT_PAPERS.map((paper) => (
          <label key={paper} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="papers" value={paper} className="h-4 w-4" />
            {paper}
          </label>
        ))}
      </div>
      {error && (
        <p id="papers-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

export default function ResitsPage() {
  const role = useSession((s) => s.context.user?.user_role ?? 'school_admin');
  return <ResitList key={role} role={role} />;
}

function ResitList({ role }: { role: 'admin' | 'school_admin' }) {
  const { list, view } = useRemovableList<ResitRow>(RESIT_PATHS.list[role], resitRowAction(role));
  const form = useActorRef(
    formDialogMachine.provide({
      actors: { submit: addResit(role, () => list.send({ type: 'list.refresh' })) },
    }),
    { input: { successMessage: RESIT_MESSAGES.added } },
  );
  useNotify(form);
  // A school admin's rows can be changed only while the course header's registration is open.
  const locked = (row: ResitRow) => role !== 'admin' && row.candidate.registration_status !== 'open';

  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Resit Candidates</h1>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <SearchForm
          search={view.search}
          onSearch={(search) => list.send({ type: 'list.filter', filters: search ? { search } : {} })}
        />
        <Button onClick={() => form.send({ type: 'form.open' })}>Add a resit candidate</Button>
      </div>
      <RemovableList<ResitRow>
        list={list}
        view={view}
        empty={view.search ? 'No resit candidate matches.' : 'No resit candidates are listed.'}
        confirm={(row) => ({
          title: 'Remove from the list',
          text: (
            <p>
              Remove {fullName(row.candidate)} ({row.candidate_index}) from the resit list for {row.exam}?
            </p>
          ),
        })}
        table={(rows, askRemove) => (
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50">
              <tr>
                <Th>Index number</Th>
                <Th>Name</Th>
                {role === 'admin' && <Th>School</Th>}
                <Th>Course</Th>
                <Th>Exam</Th>
                <Th>Papers</Th>
                <Th>
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((row) => (
                <tr key={row.id}>
                  <Td>{row.candidate_index}</Td>
                  <Td>{fullName(row.candidate)}</Td>
                  {role === 'admin' && <Td>{row.candidate.school.code}</Td>}
                  <Td>{row.candidate.course_header}</Td>
                  <Td>{row.exam}</Td>
                  <Td>{row.papers.join(', ')}</Td>
                  <Td>
                    <Button
                      variant="secondary"
                      className="whitespace-nowrap px-2 py-1"
                      disabled={view.busy || locked(row)}
                      title={locked(row) ? 'Registration is closed for this course header' : undefined}
                      aria-label={`Remove from the list: ${fullName(row.candidate)}, ${row.exam}`}
                      onClick={() => askRemove(row)}
                    >
                      Remove from the list
                    </Button>
                  </Td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      />
      <PageFormDialog
        actor={form}
        title="Add a resit candidate"
        submitLabel="Add"
        busyLabel="Adding…"
        closeLabel="Cancel"
      >
        {(fieldError) => (
          <>
            <TextField
              label="Candidate index number"
              name="candidate_index"
              maxLength={L.candidateIndexMax}
              hint="e.g. WHB/26/A1/000123"
              autoComplete="off"
              error={fieldError('candidate_index')}
            />
            <TextField
              label="Exam"
              name="exam"
              maxLength={L.examMax}
              hint="e.g. May 2027 Professional Examination"
              error={fieldError('exam')}
            />
            <PapersField error={fieldError('papers')} />
          </>
        )}
      </PageFormDialog>
    </section>
  );
}
