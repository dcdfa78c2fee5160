import { count } from 'drizzle-orm';
import { hashPassword } from '../secrets';
import { removeFiles } from '../candidates/uploads';
import type { Logger } from '../log';
import type { Storage } from '../storage/storage';
import type { Database } from '../db/client';
import { users } from '../db/schema';
import { DEMO_PASSWORD, seedAccounts } from './accounts';
import { seedHistory } from './history';
import { seedImpersonation } from './impersonation';
import { seedBroadcasts } from './broadcasts';
import { seedCandidates } from './candidates';
import type { DemoSeed } from './context';
import { seedCourseHeaders } from './courseHeaders';
import { seedDiets } from './diets';
import { seedListed } from './listed';
import { seedIntegrity } from './integrity';
import { seedNotifications } from './notifications';
import { seedPayments } from './payments';
import { seedPrints } from './printed';
import { seedScores } from './scores';
import { seedStaff } from './staff';

export { DEMO_PASSWORD, DEMO_SIGN_INS } from './accounts';

/**
 * The demo, what an empty database is filled with: one file per area in this folder, apart from the
 * database itself (server/db/ keeps the schema, its migrations and the client). The sign-ins alone (schools, course headers, the three
 * accounts, the exam diets) are what the test suites build their own rows on; the living demo adds what a board looks
 * like mid-year: candidates with their photos and certificates, the offenders and resit lists, and the
 * schools' notifications. A later area (fees and payments, scores, broadcasts) adds its own file and one
 * call in seedDemo, after the areas whose rows it uses.
 */

/** Whether the database has no users yet: the portal fills it with the demo then. */
export async function isEmpty(db: Database): Promise<boolean> {
  const [{ total }] = await db.select({ total: count() }).from(users);
  return total === 0;
}

/** The schools, course headers and three sign-ins, in one transaction. */
export async function seedSignIns(db: Database): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const accounts = await seedAccounts(tx, passwordHash);
    await seedCourseHeaders(tx);
    await seedDiets(tx, new Date(), accounts.adminId);
  });
}

export interface DemoSummary {
  candidates: number;
  files: number;
  milliseconds: number;
}

/**
 * The whole living demo, in one transaction; its files go to the portal's storage as uploads do. If any
 * of it fails, nothing is kept: the transaction rolls back and the stored files are removed again.
 */
export async function seedDemo(
  db: Database,
  { storage, log, now = new Date() }: { storage: Storage; log: Logger; now?: Date },
): Promise<DemoSummary> {
  const started = performance.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const storedKeys: string[] = [];
  try {
    const candidates = await db.transaction(async (tx) => {
      const demo: DemoSeed = { tx, storage, log, now, storedKeys };
      const accounts = await seedAccounts(tx, passwordHash);
      const headers = await seedCourseHeaders(tx);
      const diets = await seedDiets(tx, now, accounts.adminId);
      const candidates = await seedCandidates(demo, accounts, headers, diets);
      await seedListed(demo, accounts, candidates, diets);
      await seedPayments(demo, accounts, candidates, diets);
      // After payments and resits: the board's notifications of them lead to the demo's own rows.
      await seedNotifications(demo, accounts);
      await seedScores(demo, accounts, diets);
      await seedStaff(demo, accounts);
      await seedPrints(demo, accounts, candidates, diets);
      await seedBroadcasts(demo, accounts);
      // Last: it renames two of this year's unchecked candidates, whom nothing before names (issue 27's
      // integrity reports); then the audit trail's entries of the rows above, and an admin's session as a
      // school admin (issue 27).
      await seedIntegrity(demo, accounts, candidates);
      await seedHistory(demo, accounts);
      await seedImpersonation(demo, accounts);
      return candidates.length;
    });
    return { candidates, files: storedKeys.length, milliseconds: Math.round(performance.now() - started) };
  } catch (error) {
    await removeFiles(storage, log, storedKeys);
    throw error;
  }
}
