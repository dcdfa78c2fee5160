import type { ChartProps } from './Charts';

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
