import { SCHOOL_BROADCASTS_PAGE } from '../../../contract/broadcasts';
import { DASHBOARD_LINKS as L, type SchoolDashboard } from '../../../contract/dashboard';
import { SCHOOL_MESSAGES_PAGE } from '../../../contract/notifications';
import { ChartSlot } from './ChartSlot';
import { Stat, StatGroup } from './Stat';

/**
 * A school admin's dashboard: its candidates for the current diet by status, who is unpaid, its
 * published results, and what the board asks of it: broadcasts to acknowledge, its messages with the
 * board.
 */
export function SchoolView({ data }: { data: SchoolDashboard }) {
  const diet = data.diet?.code;
  const c = data.candidates;
  return (
    <>
      <StatGroup
        title={data.diet ? `Your candidates for ${data.diet.name} (${data.diet.code})` : 'Your candidates'}
      >
        <Stat label="Indexed" value={c.indexed} link={L.schoolIndexed()} />
        <Stat label="Awaiting the board's check" value={c.unverified} link={L.schoolVerified(false)} />
        <Stat label="Verified, not registered" value={c.unregistered} link={L.unregistered(diet)} />
        <Stat label="Registered" value={c.registered} link={L.registered(diet)} />
        <Stat label="Registration fee paid" value={c.paid} link={L.fee(diet, 'paid')} />
        <Stat
          label="Registration fee unpaid"
          value={c.unpaid}
          link={L.fee(diet, 'unpaid')}
          note="Pay from Payments"
        />
      </StatGroup>

      <StatGroup title="From the board">
        <Stat
          label="Broadcasts to acknowledge"
          value={data.broadcasts_to_acknowledge}
          link={{ href: SCHOOL_BROADCASTS_PAGE, filtered: false }}
        />
        <Stat
          label="New answers from the board"
          value={data.messages_with_board.unread_answers}
          link={{ href: SCHOOL_MESSAGES_PAGE, filtered: false }}
        />
        <Stat
          label="Messages waiting for the board"
          value={data.messages_with_board.open}
          link={{ href: SCHOOL_MESSAGES_PAGE, filtered: false }}
        />
      </StatGroup>

      {data.results && (
        <StatGroup title={`Published results, ${data.results.diet.name}`}>
          <Stat
            label="Results published"
            value={data.results.results}
            link={L.schoolResults(data.results.diet.code)}
          />
          <Stat label="Passed" value={data.results.passed} link={L.schoolResults(data.results.diet.code)} />
        </StatGroup>
      )}

      <ChartSlot
        title="Your candidates for the diet"
        labelHeader="Status"
        labels={['Awaiting check', 'Not registered', 'Registered', 'Paid', 'Unpaid']}
        series={[
          { name: 'Candidates', values: [c.unverified, c.unregistered, c.registered, c.paid, c.unpaid] },
        ]}
        horizontal
      />
    </>
  );
}
