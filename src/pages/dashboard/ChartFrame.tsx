/** One series of bars, in the order of the chart's labels. */
interface ChartSeries {
  name: string;
  values: number[];
}

export interface ChartProps {
  title: string;
  labels: string[];
  series: ChartSeries[];
  /** Bars left to right (a category a row), for long labels on a phone. */
  horizontal?: boolean;
  /** Show every n-th label on the axis (the table has them all). */
  labelEvery?: number;
  /** How the table writes a value (a percentage, a count). */
  format?: (value: number) => string;
  /** The table's header of the label column. */
  labelHeader: string;
}

/**
 * What a chart's frame needs before chartist is here: its drawing's height and its legend, so the
 * placeholder of ChartSlot takes the very room the chart will (no layout shift when it is drawn).
 */
export function chartHeight({
  labels,
  series,
  horizontal,
}: Pick<ChartProps, 'labels' | 'series' | 'horizontal'>) {
  return horizontal ? Math.max(160, labels.length * 22 * Math.max(1, series.length * 0.7) + 40) : 220;
}

export function Legend({ series }: Pick<ChartProps, 'series'>) {
  if (series.length < 2) return null;
  return (
    <p className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600" aria-hidden="true">
      {series.map((s, i) => (
        <span key={s.name} className={`dashboard-legend dashboard-legend-${i}`}>
          {s.name}
        </span>
      ))}
    </p>
  );
}
