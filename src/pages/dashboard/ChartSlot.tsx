import { lazy, Suspense } from 'react';
import { chartHeight, Legend, type ChartProps } from './ChartFrame';

// chartist and the charts' CSS are a chunk of their own, fetched after the numbers are on screen.
const Chart = lazy(() => import('./Charts'));

/** A chart where it will be, its title shown while its chunk arrives. */
export function ChartSlot(props: ChartProps) {
  return (
    <Suspense
      fallback={
        <figure className="relative mt-4 min-w-0 rounded-md bg-white p-3 ring-1 ring-slate-200">
          <figcaption className="font-semibold">{props.title}</figcaption>
          <Legend series={props.series} />
          {/* The chart's own height (React sets it through the CSSOM, which the CSP allows). */}
          <p className="text-sm text-slate-500" style={{ height: chartHeight(props) }}>
            Loading the chart…
          </p>
        </figure>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
