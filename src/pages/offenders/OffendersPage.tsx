import {
  OFFENCE_LIMITS as L,
  OFFENDER_MESSAGES,
  sanctionTerm,
  type OffenderRow,
} from '../../../contract/offenders';
import { OFFENDER_ENDPOINTS as E } from '../../../contract/offenders.endpoints';
import { recordOffence } from '../../api/offenders';
import { TextAreaField, TextField } from '../../ui/controls';
import { DateField } from '../../ui/DateField';
import { DietField, prefetchDietChoices } from '../diets/DietField';
import { CandidateIndexField, RemovableListPage, candidateName, type Column } from '../removableList';

/** Exam Offenders (/candidate/offender/candidate-exam-offenders, admin): the list, recording, removal. */

const columns: Column<OffenderRow>[] = [
  { header: 'School', cell: (row) => row.candidate.school.code },
  { header: 'Diet', cell: (row) => row.diet.name },
  {
    header: 'Offence',
    cell: (row) => <span className="whitespace-pre-line break-words">{row.offence}</span>,
  },
  {
    header: 'Sanction',
    cell: (row) => <span className="whitespace-pre-line break-words">{row.sanction}</span>,
  },
  {
    header: 'Period',
    cell: (row) => (
      <>
        {sanctionTerm(row)}
        <span
          className={`ml-2 rounded px-1.5 py-0.5 text-xs ${row.active ? 'bg-red-100 text-red-800' : 'bg-slate-100 text-slate-600'}`}
        >
          {row.active ? 'In force' : 'Not in force'}
        </span>
      </>
    ),
  },
];

export default function OffendersPage() {
  prefetchDietChoices('admin');
  return (
    <RemovableListPage<OffenderRow>
      title="Exam Offenders"
      definition={E.list}
      remove={E.remove}
      add={{
        label: 'Record an offence',
        submitLabel: 'Record',
        busyLabel: 'Recording…',
        successMessage: OFFENDER_MESSAGES.recorded,
        save: recordOffence,
      }}
      fields={(fieldError) => (
        <>
          <CandidateIndexField error={fieldError('candidate_index')} />
          <DietField role="admin" label="Diet of the offence" error={fieldError('diet')} />
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
          <TextField
            label="Sanction runs for (diets)"
            name="sanction_diets"
            inputMode="numeric"
            maxLength={2}
            hint="A number of diets after the offence's, or leave empty and give the dates below"
            error={fieldError('sanction_diets')}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <DateField label="Sanction from" name="sanction_from" error={fieldError('sanction_from')} />
            <DateField
              label="Sanction until"
              name="sanction_until"
              hint="Leave empty for an indefinite sanction"
              error={fieldError('sanction_until')}
            />
          </div>
        </>
      )}
      empty={{ none: 'No offences are listed.', noMatch: 'No offender matches.' }}
      columns={columns}
      rowName={(row) => candidateName(row.candidate)}
      confirm={(row) => (
        <p>
          Remove the offence of {candidateName(row.candidate)} ({row.candidate_index}) from the list? Its
          sanction will no longer stop the candidate being registered. Remove only an offence recorded in
          error.
        </p>
      )}
    />
  );
}
