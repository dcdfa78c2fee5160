import { chartValueFormat, type DocumentBlock } from '../../../contract/documents';

type ChartData = Extract<DocumentBlock, { kind: 'chart' }>;

const LABEL_WIDTH = 190;
const BAR_SPACE = 330;
const VALUE_WIDTH = 60;
const ROW = 20;

/**
 * A bar chart drawn as SVG, each bar placed from `value / max` as the builder decided; its numbers also
 * as a table, which screen readers read and the paper prints under the chart (hidden on screen, where
 * the bars carry their values beside them).
 */
export function ChartBlock({ block }: { block: ChartData }) {
  const width = LABEL_WIDTH + BAR_SPACE + VALUE_WIDTH;
  const height = block.bars.length * ROW + 4;
  const formatValue = chartValueFormat(block.bars);
  const share = (value: number) => (block.max > 0 ? Math.max(0, Math.min(1, value / block.max)) : 0);
  return (
    <figure className="keep-together mt-4">
      <figcaption className="mb-1 font-semibold">
        {block.title} <span className="font-normal text-slate-600">({block.unit})</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="w-full max-w-2xl"
        aria-hidden="true"
        data-testid="chart"
      >
        {block.bars.map((bar, i) => {
          const y = i * ROW + 2;
          return (
            <g key={i}>
              <text x={LABEL_WIDTH - 6} y={y + ROW / 2 + 4} textAnchor="end" fontSize="11" fill="#0f172a">
                {bar.label.length > 30 ? `${bar.label.slice(0, 29)}…` : bar.label}
              </text>
              <rect x={LABEL_WIDTH} y={y + 3} width={BAR_SPACE} height={ROW - 6} fill="#f1f5f9" />
              <rect
                x={LABEL_WIDTH}
                y={y + 3}
                width={BAR_SPACE * share(bar.value)}
                height={ROW - 6}
                fill="#047857"
              />
              <text x={LABEL_WIDTH + BAR_SPACE + 6} y={y + ROW / 2 + 4} fontSize="11" fill="#0f172a">
                {formatValue(bar.value)}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="sr-only mt-2 text-[9pt] print:not-sr-only">
        <caption className="sr-only">{block.title}</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left">
              &nbsp;
            </th>
            <th scope="col" className="text-right">
              {block.unit}
            </th>
          </tr>
        </thead>
        <tbody>
          {block.bars.map((bar, i) => (
            <tr key={i}>
              <th scope="row" className="text-left font-normal">
                {bar.label}
              </th>
              <td className="text-right">{formatValue(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
