import { sql, type SQL } from 'drizzle-orm';
import { candidates, fees, paymentItems } from '../db/schema';
import { registrationOf } from './records';

/**
 * Whether a candidate's registration fee for a diet is paid, as SQL about `candidates` (one place for
 * the registered lists' Fee column and their `registration_fee` filter, so a registered row and the
 * filter that finds it agree; the filter's `paid` alone also finds a candidate credited and then
 * unregistered, whose Fee is blank; the dashboard counts the same rule from the registrations' side,
 * in server/dashboard/aggregates.ts, and links to the list with `reg_status=registered`):
 * - paid: a registration fee (per candidate) of the diet was credited for them, whatever its status now;
 * - unpaid: registered for the diet, an active registration fee of the diet covers their course header,
 *   and none was credited for them.
 * Each part is a `select 1` about the candidate: the filter asks `exists`, the column asks each row.
 */
const creditedFee = (dietId: SQL) =>
  sql`select 1 from ${paymentItems} join ${fees} on ${fees.id} = ${paymentItems.feeId}
    where ${paymentItems.candidateId} = ${candidates.id} and ${paymentItems.credited}
    and ${fees.dietId} = ${dietId} and ${fees.kind} = 'registration' and ${fees.basis} = 'candidate'`;

const chargingFee = (dietId: SQL) =>
  sql`select 1 from ${fees} where ${fees.dietId} = ${dietId} and ${fees.kind} = 'registration'
    and ${fees.basis} = 'candidate' and ${fees.status} = 'active'
    and (cardinality(${fees.courseHeaderIds}) = 0 or ${candidates.courseHeaderId} = any(${fees.courseHeaderIds}))`;

/** Their registration for the diet, as the candidate lists' `reg_status` filter asks it. */
const registration = (dietId: SQL) => registrationOf(dietId, 'registered');

export function registrationFeeIs(dietId: SQL, state: string): SQL {
  return state === 'paid'
    ? sql`exists (${creditedFee(dietId)})`
    : sql`exists (${registration(dietId)}) and exists (${chargingFee(dietId)}) and not exists (${creditedFee(dietId)})`;
}

/** One row's answer to a part: a scalar subquery, which PostgreSQL runs for that row alone. */
const holds = (part: SQL) => sql`(${part} limit 1) is not null`;

/**
 * The registered lists' Fee column, read in the rows' own statement: null for a row not registered for
 * the diet, `paid` or `unpaid` as above, and null when the diet charges their course header nothing.
 * Not `exists`: in a select list PostgreSQL may answer an `exists` from a hash of every registration
 * (or credit) of the diet, built for a page of 25 rows (at 100,000 candidates a school's page took
 * 21.6 ms instead of 4.5); a scalar subquery is asked once a row, through the candidate's index.
 */
export const registrationFeeOf = (dietId: SQL) =>
  sql<'paid' | 'unpaid' | null>`case when not ${holds(registration(dietId))} then null
    when ${holds(creditedFee(dietId))} then 'paid' when ${holds(chargingFee(dietId))} then 'unpaid' end`;
