import { sql, type SQL } from 'drizzle-orm';
import { candidates, fees, paymentItems, registrations } from '../db/schema';

/**
 * Whether a candidate's registration fee for a diet is paid, as SQL about `candidates` (one place for
 * the registered lists' `registration_fee` filter and the dashboard's counts, so a count and the list
 * it links to agree):
 * - paid: a registration fee (per candidate) of the diet was credited for them, whatever its status now;
 * - unpaid: registered for the diet, an active registration fee of the diet covers their course header,
 *   and none was credited for them.
 * As the registered lists' Fee column says (server/payments/service.ts withRegistrationFee).
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
