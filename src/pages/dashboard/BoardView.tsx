import { DASHBOARD_LINKS as L, type BoardDashboard } from '../../../contract/dashboard';
import { formatDateTime } from '../../../contract/format';
import { formatNaira } from '../../../contract/payments';
import { SHEET_STATE_LABELS, type SheetState } from '../../../contract/scores';
import { ChartSlot } from './ChartSlot';
import { Stat, StatGroup } from './Stat';

const percent = (value: number) => `${value.toFixed(1)}%`;
const rate = (passed: number, results: number) => (results ? (100 * passed) / results : 0);
/** 14/11 for 2026-11-14: the day and month, as the board writes dates. */
const dayMonth = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

/** The board admin's dashboard: the current diet first, then money, marking and what waits. */
export function BoardView({ data }: { data: BoardDashboard }) {
  const diet = data.diet?.code;
  const c = data.candidates;
  const rates = data.pass_rates;
  return (
    <>
      <StatGroup title={data.diet ? `${data.diet.name} (${data.diet.code})` : 'No diet is current'}>
        <Stat label="Candidates indexed" value={c.indexed} link={L.indexed()} note="All diets" />
        <Stat label="Documents verified" value={c.verified} link={L.verified()} />
        <Stat label="Registered for the diet" value={c.registered} link={L.registered(diet)} />
        <Stat label="Registration fee paid" value={c.paid} link={L.fee(diet, 'paid')} />
        <Stat label="Registration fee unpaid" value={c.unpaid} link={L.fee(diet, 'unpaid')} />
        <Stat label="Schools with an extension" value={data.extensions} link={L.diets()} />
      </StatGroup>

      <StatGroup title="Schools">
        <Stat label="Active schools" value={data.schools.active} link={L.schools('active')} />
        <Stat label="Suspended schools" value={data.schools.suspended} link={L.schools('suspended')} />
      </StatGroup>

      <StatGroup title="Payments">
        <Stat
          label={`Paid today (${data.payments.today.count})`}
          value={formatNaira(data.payments.today.amount_kobo)}
          link={L.paymentsPaid('today')}
        />
        <Stat
          label={`Paid this week (${data.payments.week.count})`}
          value={formatNaira(data.payments.week.amount_kobo)}
          link={L.paymentsPaid('week')}
          note="Since Monday, Lagos time"
        />
        <Stat label="Reconciliation queue" value={data.reconciliation_open} link={L.reconciliation()} />
      </StatGroup>

      <StatGroup title="Marking and messages">
        <Stat
          label="Scripts waiting for a third marker"
          value={data.scripts_awaiting_third_marker}
          link={L.sheets(diet, 'third_marker')}
        />
        {(Object.keys(data.sheets) as SheetState[]).map((state) => (
          <Stat
            key={state}
            label={`Score sheets: ${SHEET_STATE_LABELS[state].toLowerCase()}`}
            value={data.sheets[state]}
            link={L.sheets(diet, state)}
          />
        ))}
        <Stat label="Unread notifications" value={data.unread_notifications} link={L.notifications()} />
      </StatGroup>

      <div className="grid gap-x-4 lg:grid-cols-2">
        {data.registrations_per_day.length > 0 && (
          <ChartSlot
            title="Registrations per day, the last 30 days"
            labelHeader="Day"
            labels={data.registrations_per_day.map((d) => dayMonth(d.day))}
            series={[{ name: 'Registrations', values: data.registrations_per_day.map((d) => d.count) }]}
            labelEvery={5}
          />
        )}
        <ChartSlot
          title="Candidates per course header"
          labelHeader="Course header"
          labels={data.candidates_per_course_header.map((h) => h.code)}
          series={[
            {
              name: 'Registered for the diet',
              values: data.candidates_per_course_header.map((h) => h.registered),
            },
            { name: 'Indexed', values: data.candidates_per_course_header.map((h) => h.indexed) },
          ]}
          horizontal
        />
        {rates && (
          <ChartSlot
            title={`Pass rates by school, ${rates.diet.name} (board: ${percent(rate(rates.passed, rates.results))})`}
            labelHeader="School"
            labels={rates.schools.map((s) => s.code)}
            series={[{ name: 'Pass rate (%)', values: rates.schools.map((s) => rate(s.passed, s.results)) }]}
            format={percent}
            horizontal
          />
        )}
      </div>
      <p className="mt-2 text-sm text-slate-600">
        The candidates&apos; counts, the payments and the charts as counted at{' '}
        {formatDateTime(data.counted_at)} (counted again each minute).
      </p>
      {rates && (
        <p className="mt-2 text-sm text-slate-600">
          The {rates.schools.length} schools with the most results of {rates.diet.code};{' '}
          <a className="text-brand-700 underline" href={L.results(rates.diet.code).href}>
            every result of {rates.diet.code}
          </a>
          .
        </p>
      )}
    </>
  );
}
