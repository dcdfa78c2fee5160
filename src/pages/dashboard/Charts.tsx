import { BarChart, type BarChartData, type BarChartOptions } from 'chartist';
import 'chartist/dist/index.css';
import './charts.css';
import './chartistStyles';
import { chartHeight, Legend, type ChartProps } from './ChartFrame';
import { useEffect, useRef } from 'react';

/**
 * The dashboard's charts (chartist: SVG, 6.9 KB brotli), a chunk of its own loaded after the numbers.
 * Each chart is drawn for the eye only (aria-hidden); its data is the table beside it, which screen
 * readers read and print shows (visually hidden on screen). Bars grow in only when the user has not
 * asked for reduced motion: a CSS animation (charts.css), which the compositor plays, where chartist's
 * own (an SVG <animate> and its end event a bar) cost a phone's CPU a long task a chart.
 */

function Drawing({ labels, series, horizontal, labelEvery = 1 }: ChartProps) {
  const height = `${chartHeight({ labels, series, horizontal })}px`;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    // Horizontal bars are drawn from the bottom up: the data is turned round here so the first row is on
    // top (chartist's own reverseData also swaps the series, and with them their colours).
    const turn = <T,>(values: T[]) => (horizontal ? [...values].reverse() : values);
    const data: BarChartData = { labels: turn(labels), series: series.map((s) => turn(s.values)) };
    // A thinned axis shows the label's first part (the day of 14/11): the table has it whole.
    const every = (value: string | number, index: number) =>
      index % labelEvery === 0 ? (labelEvery > 1 ? String(value).split('/')[0] : value) : null;
    const options: BarChartOptions = horizontal
      ? {
          horizontalBars: true,
          height,
          axisY: { offset: 60 },
          axisX: { onlyInteger: true },
          chartPadding: { top: 10, right: 18, bottom: 5, left: 10 },
          seriesBarDistance: 8,
        }
      : {
          height,
          axisX: { labelInterpolationFnc: every },
          axisY: { onlyInteger: true, offset: 36 },
        };
    const chart = new BarChart(ref.current, data, options);
    return () => {
      chart.detach();
    };
  }, [labels, series, horizontal, labelEvery, height]);
  return <div ref={ref} aria-hidden="true" className="dashboard-chart w-full" data-testid="chart-drawing" />;
}

export default function Chart(props: ChartProps) {
  const format = props.format ?? String;
  return (
    <figure className="relative mt-4 min-w-0 rounded-md bg-white p-3 ring-1 ring-slate-200">
      <figcaption className="font-semibold">{props.title}</figcaption>
      <Legend series={props.series} />
      <Drawing {...props} />
      {/* A table is as wide as its cells whatever its own width: the box around it is what hides it. */}
      <div className="sr-only print:not-sr-only print:mt-2 print:text-sm">
        <table data-testid="chart-table">
          <caption>{props.title}</caption>
          <thead>
            <tr>
              <th scope="col">{props.labelHeader}</th>
              {props.series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.labels.map((label, row) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {props.series.map((s) => (
                  <td key={s.name}>{format(s.values[row])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
