import {
  OFFENCE_LIMITS as L,
  OFFENDER_MESSAGES,
  OFFENDER_PATHS,
  type OffenderRow,
} from '../../../contract/offenders';
import { formatDate } from '../../../contract/format';
import { OFFENDERS_LIST } from '../../../contract/lists';
import { recordOffence } from '../../api/offenders';
import { DateField, TextAreaField, TextField } from '../../ui/controls';
import { CandidateIndexField, RemovableListPage, candidateName, type Column } from '../removableList';

/** Exam Offenders (/candidate/offender/candidate-exam-offenders, admin): the list, recording, removal. */

const period = (row: OffenderRow) =>
  `${formatDate(row.sanction_from)} to ${row.sanction_until ? formatDate(row.sanction_until) : 'indefinitely'}`;

const columns: Column<OffenderRow>[] = [
  { header: 'School', cell: (row) => row.candidate.school.code },
  { header: 'Exam', cell: (row) => row.exam },
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
        {period(row)}
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
  return (
    <RemovableListPage<OffenderRow>
      title="Exam Offenders"
      definition={OFFENDERS_LIST}
      paths={OFFENDER_PATHS}
      add={{
        label: 'Record an offence',
        submitLabel: 'Record',
        busyLabel: 'Recording…',
        successMessage: OFFENDER_MESSAGES.recorded,
        submit: recordOffence,
      }}
      fields={(fieldError) => (
        <>
          <CandidateIndexField error={fieldError('candidate_index')} />
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
