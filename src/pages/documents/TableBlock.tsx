import { useRef } from 'react';
import type { DocumentBlock, DocumentCell, DocumentColumn } from '../../../contract/documents';
import { useScrollEdges } from '../../ui/scrollEdges';
import { PrintPhoto } from './photo';

type TableData = Extract<DocumentBlock, { kind: 'table' }>;

const ALIGN = { left: 'text-left', right: 'text-right', center: 'text-center' } as const;

/**
 * A table of a printed document: its header repeats on every printed page and a row never splits
 * (print.css); a blank column is a box left empty for an examiner's hand; a photo cell is the
 * candidate's print photo (the album layout). On a narrow screen it scrolls sideways in its own frame,
 * which then is a named region that takes the keyboard's focus (as a list's table does, ListTable).
 */
export function TableBlock({ block }: { block: TableData }) {
  const widths = block.columns.map((column) => column.width ?? 1);
  const whole = widths.reduce((sum, width) => sum + width, 0);
  // A name for each row's photo: the first text cell that is not a number.
  const nameOf = (row: DocumentCell[]) =>
    row.find((cell): cell is string => typeof cell === 'string' && cell !== '' && !/^\d+$/.test(cell)) ?? '';
  const frame = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(frame);
  return (
    <section className="mt-4">
      {block.title && <h2 className="mb-1 font-semibold">{block.title}</h2>}
      <div
        ref={frame}
        tabIndex={edges.scrolls ? 0 : undefined}
        role={edges.scrolls ? 'region' : undefined}
        aria-label={edges.scrolls ? `${block.title ?? 'Table'} (scrolls sideways)` : undefined}
        className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-brand-600 print:overflow-visible"
      >
        <table className="text-sm print:text-[9pt]">
          <colgroup>
            {widths.map((width, i) => (
              <col key={i} style={{ width: `${((100 * width) / whole).toFixed(2)}%` }} />
            ))}
          </colgroup>
          <thead className="bg-slate-100">
            <tr>
              {block.columns.map((column, i) => (
                <th key={i} scope="col" className={ALIGN[column.align ?? 'left']}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <Cell key={i} cell={cell} column={block.columns[i]} name={nameOf(row)} />
                ))}
              </tr>
            ))}
            {block.totals && (
              // The last row, not a <tfoot>: Chromium repeats a footer on every printed page.
              <tr className="font-semibold">
                {block.totals.map((cell, i) => (
                  <td key={i} className={ALIGN[block.columns[i]?.align ?? 'left']}>
                    {cell}
                  </td>
                ))}
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Cell({
  cell,
  column,
  name,
}: {
  cell: DocumentCell;
  column: DocumentColumn | undefined;
  name: string;
}) {
  const align = ALIGN[column?.align ?? 'left'];
  if (typeof cell !== 'string') {
    return (
      <td className={align}>
        <PrintPhoto photo={cell.photo} name={name} className="h-[32mm] w-[25mm]" />
      </td>
    );
  }
  if (column?.blank && cell === '') {
    return <td className={`blank-box ${align}`} aria-label={`${column.label}: left blank`} />;
  }
  return <td className={align}>{cell}</td>;
}
