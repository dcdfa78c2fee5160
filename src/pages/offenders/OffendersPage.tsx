import { useActorRef } from '@xstate/react';
import {
  OFFENCE_LIMITS as L,
  OFFENDER_MESSAGES,
  OFFENDER_PATHS,
  formatDay,
  type OffenderRow,
} from '../../../contract/offenders';
import { formDialogMachine } from '../../../machines/formDialog.machine';
import { offenderRowAction, recordOffence } from '../../api/offenders';
import { useNotify } from '../../app/notify';
import { Button, TextAreaField, TextField } from '../../ui/controls';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { RemovableList, SearchForm, Td, Th, useRemovableList } from '../removableList';

/** Exam Offenders (/candidate/offender/candidate-exam-offenders, admin): the list, recording, removal. */

const fullName = (c: OffenderRow['candidate']) =>
  [c.first_name, c.middle_name, c.last_name].filter(Boolean).join(' ');

const period = (row: OffenderRow) =>
  `${formatDay(row.sanction_from)} to ${row.sanction_until ? formatDay(row.sanction_until) : 'indefinitely'}`;

export default function OffendersPage() {
  const { list, view } = useRemovableList<OffenderRow>(OFFENDER_PATHS.list, offenderRowAction);
  const form = useActorRef(
    formDialogMachine.provide({
      actors: { submit: recordOffence(() => list.send({ type: 'list.refresh' })) },
    }),
    { input: { successMessage: OFFENDER_MESSAGES.recorded } },
  );
  useNotify(form);

  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Exam Offenders</h1>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <SearchForm
          search={view.search}
          onSearch={(search) => list.send({ type: 'list.filter', filters: search ? { search } : {} })}
        />
        <Button onClick={() => form.send({ type: 'form.open' })}>Record an offence</Button>
      </div>
      <RemovableList<OffenderRow>
        list={list}
        view={view}
        empty={view.search ? 'No offender matches.' : 'No offences are listed.'}
        confirm={(row) => ({
          title: 'Remove from the list',
          text: (
            <p>
              Remove the offence of {fullName(row.candidate)} ({row.candidate_index}) from the list? Its
              sanction will no longer stop the candidate being registered. Remove only an offence recorded in
              error.
            </p>
          ),
        })}
        table={(rows, askRemove) => (
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50">
              <tr>
                <Th>Index number</Th>
                <Th>Name</Th>
                <Th>School</Th>
                <Th>Exam</Th>
                <Th>Offence</Th>
                <Th>Sanction</Th>
                <Th>Period</Th>
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
                  <Td>{row.candidate.school.code}</Td>
                  <Td>{row.exam}</Td>
                  <Td>
                    <span className="whitespace-pre-line break-words">{row.offence}</span>
                  </Td>
                  <Td>
                    <span className="whitespace-pre-line break-words">{row.sanction}</span>
                  </Td>
                  <Td>
                    {period(row)}
                    <span
                      className={`ml-2 rounded px-1.5 py-0.5 text-xs ${row.active ? 'bg-red-100 text-red-800' : 'bg-slate-100 text-slate-600'}`}
                    >
                      {row.active ? 'In force' : 'Not in force'}
                    </span>
                  </Td>
                  <Td>
                    <Button
                      variant="secondary"
                      className="whitespace-nowrap px-2 py-1"
                      disabled={view.busy}
                      aria-label={`Remove from the list: ${fullName(row.candidate)}`}
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
        title="Record an offence"
        submitLabel="Record"
        busyLabel="Recording…"
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
            <TextField label="Exam" name="exam" maxLength={L.examMax} error={fieldError('exam')} />
            <TextAreaField
              label="Offence"
              name="offence"
              rows={2}
              maxLength={L.offenceMax}
              error={fieldError('offence')}
            />
            <TextAreaField
              label="Sanction"
              name="sanction"
              rows={2}
              maxLength={L.sanctionMax}
              error={fieldError('sanction')}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label="Sanction from"
                name="sanction_from"
                type="date"
                error={fieldError('sanction_from')}
              />
              <TextField
                label="Sanction until"
                name="sanction_until"
                type="date"
                hint="Leave empty for an indefinite sanction"
                error={fieldError('sanction_until')}
              />
            </div>
          </>
        )}
      </PageFormDialog>
    </section>
  );
}
