import { RESULT_OUTCOMES, RESULT_OUTCOME_LABELS, type ResultRow } from '../../../contract/scores';
import { Button, SelectField, TextField } from '../../ui/controls';
import { ListTable, SearchForm } from '../../ui/ListView';
import type { ListRef } from '../../ui/StatusToggle';
import { CandidateLink } from '../candidates/CandidateLink';
import { useDietChoices } from '../diets/DietField';

export function ResultFilters({
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
      {!board && <DietChoice value={filters.diet ?? ''} />}
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

/** A school's diet choice (its filter): the diets the school can read, or every one. */
function DietChoice({ value }: { value: string }) {
  const diets = useDietChoices('school_admin');
  return (
    <div className="w-64 max-w-full">
      <SelectField label="Diet" name="diet" id="results-diet" defaultValue={value.toUpperCase()}>
        <option value="">Every diet</option>
        {diets.map((d) => (
          <option key={d.code} value={d.code}>
            {d.name} ({d.code}){d.current ? ', current' : ''}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

/** What the schools read of a board's row: nothing, the same, or a publication that differs from it now. */
function publishedText(row: ResultRow) {
  if (!row.published) return 'No';
  const was = row.published_as;
  if (!was) return 'Yes';
  const shown = [was.final_mark, was.grade, RESULT_OUTCOME_LABELS[was.outcome]].filter(Boolean).join(' ');
  return `Yes, as ${shown}: computed differently now`;
}

/** The results of a page; given the board's list, its rows show the school and release a hold. */
export function ResultTable({ rows, busy, list }: { rows: ResultRow[]; busy: boolean; list?: ListRef }) {
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
            <span className="block">
              <CandidateLink id={row.candidate_id}>{row.name}</CandidateLink>
            </span>
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
          {board && <td className="px-4 py-2">{publishedText(row)}</td>}
        </tr>
      ))}
    </ListTable>
  );
}
