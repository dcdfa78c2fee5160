import type { ReactNode } from 'react';
import type { CandidateRow } from '../../../contract/candidates';
import { formatPersonName } from '../../../contract/format';
import type { Page } from '../../../contract/pagination';
import { ListTable } from '../../ui/ListView';
import { CandidateLink } from './CandidateLink';

const HEAD = ['Index number', 'Name', 'School', 'Course', 'Year'];

/** A column of a page's own: its head and each row's cell. */
export interface CandidateColumn {
  label: string;
  cell: (row: CandidateRow) => ReactNode;
}

/** Rows ticked for an action on many at once (Registered Candidates). */
export interface RowTicks {
  ticked: ReadonlySet<number>;
  onTick: (ids: number[], on: boolean) => void;
  /** A row that cannot be ticked (already registered, a past diet). */
  canTick: (row: CandidateRow) => boolean;
}

function TickHead({ rows, ticks }: { rows: CandidateRow[]; ticks: RowTicks }) {
  const tickable = rows.filter(ticks.canTick).map((row) => row.id);
  const all = tickable.length > 0 && tickable.every((id) => ticks.ticked.has(id));
  return (
    <input
      type="checkbox"
      aria-label="Tick every row on this page"
      className="h-4 w-4"
      checked={all}
      disabled={tickable.length === 0}
      onChange={(event) => ticks.onTick(tickable, event.currentTarget.checked)}
    />
  );
}

/** The candidate lists' table: who, where, which course, the page's own columns, then its row action. */
export function CandidateTable({
  data,
  busy,
  action,
  columns = [],
  ticks,
}: {
  data: Page<CandidateRow>;
  busy: boolean;
  action?: CandidateColumn;
  columns?: CandidateColumn[];
  ticks?: RowTicks;
}) {
  const head: ReactNode[] = [
    ...(ticks ? [<TickHead key="tick" rows={data.items} ticks={ticks} />] : []),
    ...HEAD,
    ...columns.map((column) => column.label),
    ...(action ? [action.label] : []),
  ];
  return (
    <ListTable head={head} busy={busy} empty="No candidate matches." isEmpty={data.items.length === 0}>
      {data.items.map((row) => (
        <tr key={row.id}>
          {ticks && (
            <td className="px-4 py-2">
              <input
                type="checkbox"
                className="h-4 w-4"
                aria-label={`Tick ${formatPersonName(row)}`}
                checked={ticks.ticked.has(row.id)}
                disabled={!ticks.canTick(row)}
                onChange={(event) => ticks.onTick([row.id], event.currentTarget.checked)}
              />
            </td>
          )}
          <td className="px-4 py-2 font-mono whitespace-nowrap">
            <CandidateLink id={row.id}>{row.candidate_index}</CandidateLink>
          </td>
          <td className="px-4 py-2">{formatPersonName(row)}</td>
          <td className="whitespace-nowrap px-4 py-2" title={row.school.name}>
            {row.school.code}
          </td>
          <td className="px-4 py-2" title={row.course_header.title}>
            {row.course_header.code}
          </td>
          <td className="px-4 py-2">{row.year}</td>
          {columns.map((column) => (
            <td key={column.label} className="px-4 py-2">
              {column.cell(row)}
            </td>
          ))}
          {action && <td className="px-4 py-2">{action.cell(row)}</td>}
        </tr>
      ))}
    </ListTable>
  );
}
