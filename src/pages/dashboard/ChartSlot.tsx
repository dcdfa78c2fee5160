import { lazy, Suspense } from 'react';
import type { ChartProps } from './Charts';

// chartist and the charts' CSS are a chunk of their own, fetched after the numbers are on screen.
const Chart = lazy(() => import('./Charts'));

/** A chart where it will be, its title shown while its chunk arrives. */
export function ChartSlot(props: ChartProps) {
  return (
    <Suspense
      fallback={
        <figure className="mt-4 rounded-md bg-white p-3 ring-1 ring-slate-200">
          <figcaption className="font-semibold">{props.title}</figcaption>
          <p className="mt-2 h-[220px] text-sm text-slate-500">Loading the chart…</p>
        </figure>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
