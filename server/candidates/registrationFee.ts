import { sql, type SQL } from 'drizzle-orm';
import { candidates, fees, paymentItems, registrations } from '../db/schema';

/**
 * Whether a candidate's registration fee for a diet is paid, as SQL about `candidates` (one place for
 * the registered lists' Fee column and their `registration_fee` filter, so a row and the filter that
 * finds it agree; the dashboard counts the same rule from the registrations' side, in
 * server/dashboard/aggregates.ts, and links to the list with `reg_status=registered`):
 * - paid: a registration fee (per candidate) of the diet was credited for them, whatever its status now;
 * - unpaid: registered for the diet, an active registration fee of the diet covers their course header,
 *   and none was credited for them.
 */
const registrationFeePaid = (dietId: SQL) =>
  sql`exists (select 1 from ${paymentItems} join ${fees} on ${fees.id} = ${paymentItems.feeId}
    where ${paymentItems.candidateId} = ${candidates.id} and ${paymentItems.credited}
    and ${fees.dietId} = ${dietId} and ${fees.kind} = 'registration' and ${fees.basis} = 'candidate')`;

const registrationFeeCharged = (dietId: SQL) =>
  sql`exists (select 1 from ${fees} where ${fees.dietId} = ${dietId} and ${fees.kind} = 'registration'
    and ${fees.basis} = 'candidate' and ${fees.status} = 'active'
    and (cardinality(${fees.courseHeaderIds}) = 0 or ${candidates.courseHeaderId} = any(${fees.courseHeaderIds})))`;

const registeredFor = (dietId: SQL) =>
  sql`exists (select 1 from ${registrations} where ${registrations.dietId} = ${dietId}
    and ${registrations.candidateId} = ${candidates.id} and ${registrations.regStatus} = 'registered')`;

export function registrationFeeIs(dietId: SQL, state: string): SQL {
  return state === 'paid'
    ? registrationFeePaid(dietId)
    : sql`${registeredFor(dietId)} and ${registrationFeeCharged(dietId)} and not ${registrationFeePaid(dietId)}`;
}

/**
 * The registered lists' Fee column, read in the rows' own statement: null for a row not registered for
 * the diet, `paid` or `unpaid` as above, and null when the diet charges their course header nothing.
 */
export const registrationFeeOf = (dietId: SQL) =>
  sql<'paid' | 'unpaid' | null>`case when not ${registeredFor(dietId)} then null
    when ${registrationFeePaid(dietId)} then 'paid' when ${registrationFeeCharged(dietId)} then 'unpaid' end`;
