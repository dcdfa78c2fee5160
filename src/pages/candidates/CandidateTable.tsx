import type { ReactNode } from 'react';
import type { CandidateRow } from '../../../contract/candidates';
import type { Page } from '../../../contract/pagination';
import { Pagination } from '../../ui/Pagination';

/** The candidate lists' table: who, where, which course, and a column of the page's own per row. */
export function CandidateTable({
  data,
  busy,
  onPage,
  actionLabel,
  action,
}: {
  data: Page<CandidateRow>;
  busy: boolean;
  onPage: (page: number) => void;
  actionLabel?: string;
  action?: (row: CandidateRow) => ReactNode;
}) {
  return (
    <>
      <div
        aria-busy={busy || undefined}
        className="overflow-x-auto rounded-md bg-white ring-1 ring-slate-200"
      >
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Index number
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Name
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                School
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Course
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Year
              </th>
              {action && (
                <th scope="col" className="px-4 py-2 font-medium">
                  {actionLabel}
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.items.length === 0 && (
              <tr>
                <td colSpan={action ? 6 : 5} className="px-4 py-6 text-center text-slate-500">
                  No candidate matches.
                </td>
              </tr>
            )}
            {data.items.map((row) => (
              <tr key={row.id}>
                <td className="px-4 py-2 font-mono whitespace-nowrap">{row.candidate_index}</td>
                <td className="px-4 py-2">
                  {row.last_name}, {row.first_name} {row.middle_name ?? ''}
                </td>
                <td className="px-4 py-2" title={row.school.name}>
                  {row.school.code}
                </td>
                <td className="px-4 py-2" title={row.course_header.title}>
                  {row.course_header.code}
                </td>
                <td className="px-4 py-2">{row.year}</td>
                {action && <td className="px-4 py-2">{action(row)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination data={data} busy={busy} onPage={onPage} />
    </>
  );
}
