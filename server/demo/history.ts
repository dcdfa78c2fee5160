import { asc } from 'drizzle-orm';
import { audit, type Actor } from '../audit';
import { candidates, payments, scoreSheets, trainingSchools } from '../db/schema';
import type { DemoAccounts } from './accounts';
import type { DemoSeed } from './context';

/**
 * The demo's rows are written straight into their tables (they are a year of the board's work made at
 * once), so the audit trail would know nothing of them. Each gets the entry its service writes when it
 * makes one, through the same `audit()`, by whoever would have made it (a payment by its school's admin
 * where the school has one; the rest, indexing included, by the board), with what the row holds: so
 * every record's History in the demo begins where its record does, and the audit trail has a year's
 * variety to search. They are written when the demo is, and say so by their time.
 */
export async function seedHistory({ tx }: DemoSeed, accounts: DemoAccounts): Promise<void> {
  const board: Actor = { userId: accounts.adminId, impersonatorId: null, ip: null, requestId: 'demo-seed' };
  const schoolCodes = new Map(accounts.schools.map((school) => [school.id, school.code]));
  const adminOf = (schoolId: number): Actor => {
    const code = schoolCodes.get(schoolId);
    const userId = code ? accounts.schoolAdminOf[code] : undefined;
    return userId === undefined ? board : { ...board, userId };
  };

  for (const school of await tx.select().from(trainingSchools).orderBy(asc(trainingSchools.id))) {
    await audit(tx, board, {
      action: 'school.created',
      entityId: school.id,
      after: { code: school.code, name: school.name, state: school.state, status: school.status },
    });
  }
  for (const candidate of await tx.select().from(candidates).orderBy(asc(candidates.id))) {
    await audit(tx, board, {
      action: 'candidate.indexed',
      entityId: candidate.id,
      after: {
        candidate_index: candidate.candidateIndex,
        first_name: candidate.first_name,
        last_name: candidate.last_name,
        year: candidate.year,
      },
    });
  }
  for (const sheet of await tx.select().from(scoreSheets).orderBy(asc(scoreSheets.id))) {
    await audit(tx, board, {
      action: 'score_sheet.created',
      entityId: sheet.id,
      after: { kind: sheet.kind, state: 'open' },
    });
  }
  for (const payment of await tx.select().from(payments).orderBy(asc(payments.id))) {
    await audit(tx, adminOf(payment.trainingSchoolId), {
      action: 'payment.started',
      entityId: payment.id,
      after: { reference: payment.reference, amount_kobo: payment.amountKobo, status: 'pending' },
    });
  }
}
