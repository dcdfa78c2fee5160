import { RESIT_MESSAGES, RESIT_PAPERS, type ResitRow } from '../../../contract/resits';
import { RESIT_ENDPOINTS as E } from '../../../contract/resits.endpoints';
import type { Role } from '../../../contract/roles';
import { addResit } from '../../api/resits';
import { useRole } from '../../app/actors';
import { DietField, prefetchDietChoices } from '../diets/DietField';
import { CandidateIndexField, RemovableListPage, candidateName, type Column } from '../removableList';

/**
 * Resit Candidates (/candidate/resit): the board sees every school's entries, a school admin their own
 * school's (the server decides; this page only picks the role's endpoints).
 */

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

/** The board sees each row's school; a school admin's rows are all their own school's. */
const columnsFor = (role: Role): Column<ResitRow>[] => [
  ...(role === 'admin' ? [{ header: 'School', cell: (row: ResitRow) => row.candidate.school.code }] : []),
  { header: 'Course', cell: (row) => row.candidate.course_header },
  { header: 'Diet', cell: (row) => row.diet.name },
  { header: 'Papers', cell: (row) => row.papers.join(', ') },
];

export default function ResitsPage() {
  const role = useRole() ?? 'school_admin';
  // Asked for with the page, so the add dialog's diet field is there when it opens.
  prefetchDietChoices(role);
  return <ResitList key={role} role={role} />;
}

function ResitList({ role }: { role: Role }) {
  return (
    <RemovableListPage<ResitRow>
      title="Resit Candidates"
      definition={E.list[role]}
      remove={E.remove[role]}
      add={{
        label: 'Add a resit candidate',
        submitLabel: 'Add',
        busyLabel: 'Adding…',
        successMessage: RESIT_MESSAGES.added,
        save: addResit(role),
      }}
      fields={(fieldError) => (
        <>
          <CandidateIndexField error={fieldError('candidate_index')} />
          <DietField
            role={role}
            open
            hint={role === 'admin' ? undefined : 'Resit entries are for the diet open for registration.'}
            error={fieldError('diet')}
          />
          <PapersField error={fieldError('papers')} />
        </>
      )}
      empty={{ none: 'No resit candidates are listed.', noMatch: 'No resit candidate matches.' }}
      columns={columnsFor(role)}
      rowName={(row) => `${candidateName(row.candidate)}, ${row.diet.name}`}
      // A school admin's rows can be changed only while the course header's registration is open.
      lockedBecause={(row) =>
        role !== 'admin' && row.candidate.registration_status !== 'open'
          ? 'Registration is closed for this course header'
          : undefined
      }
      confirm={(row) => (
        <p>
          Remove {candidateName(row.candidate)} ({row.candidate_index}) from the resit list for{' '}
          {row.diet.name}?
        </p>
      )}
    />
  );
}
