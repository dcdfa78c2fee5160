import type { ReactNode } from 'react';
import type { CandidateRow } from '../../../contract/candidates';
import { formatPersonName } from '../../../contract/format';
import type { Page } from '../../../contract/pagination';
import { ListTable } from '../../ui/ListView';

const HEAD = ['Index number', 'Name', 'School', 'Course', 'Year'];

/** The candidate lists' table: who, where, which course, and a column of the page's own per row. */
export function CandidateTable({
  data,
  busy,
  action,
}: {
  data: Page<CandidateRow>;
  busy: boolean;
  action?: { label: string; cell: (row: CandidateRow) => ReactNode };
}) {
  return (
    <ListTable
      head={action ? [...HEAD, action.label] : HEAD}
      busy={busy}
      empty="No candidate matches."
      isEmpty={data.items.length === 0}
    >
      {data.items.map((row) => (
        <tr key={row.id}>
          <td className="px-4 py-2 font-mono whitespace-nowrap">{row.candidate_index}</td>
          <td className="px-4 py-2">{formatPersonName(row)}</td>
          <td className="whitespace-nowrap px-4 py-2" title={row.school.name}>
            {row.school.code}
          </td>
          <td className="px-4 py-2" title={row.course_header.title}>
            {row.course_header.code}
          </td>
          <td className="px-4 py-2">{row.year}</td>
          {action && <td className="px-4 py-2">{action.cell(row)}</td>}
        </tr>
      ))}
    </ListTable>
  );
}
