import { and, eq } from 'drizzle-orm';
import type { DocumentQuery } from '../../contract/documents.validators';
import { candidates } from '../db/schema';
import { printedDocumentOf, startPrinting, type PrintRequest } from '../documents/print';
import type { DemoAccounts } from './accounts';
import type { DemoCandidate } from './candidates';
import { daysBefore, type DemoSeed } from './context';
import type { DemoDiets } from './diets';

/**
 * Documents the board printed in the demo's history, through the real pipeline and builders (recorded,
 * coded, their rows' facts stored), so /verify has papers to answer for: the indexing statistics printed
 * twelve days ago, before the board checked one more candidate's documents (its code now answers
 * 'changed': "Verified: was …, now …"), and the registration statistics printed two days ago (genuine).
 */

const systemActorOf = (userId: number) => ({ userId, impersonatorId: null, ip: null, requestId: null });

export async function seedPrints(
  { tx, now }: DemoSeed,
  accounts: DemoAccounts,
  demoCandidates: DemoCandidate[],
  diets: DemoDiets,
): Promise<void> {
  const board = (daysAgo: number): PrintRequest => ({
    db: tx,
    // The demo's papers are not drawn: the address only makes the QR codes of this reading, not stored.
    publicUrl: '',
    caller: { role: 'admin', trainingSchoolId: null },
    actor: systemActorOf(accounts.adminId),
    now: daysBefore(now, daysAgo),
  });
  const print = async (request: PrintRequest, ending: string, query: DocumentQuery = {}) =>
    printedDocumentOf(await startPrinting(request, ending, query));

  await print(board(12), 'course-index-stats');

  // Since then the board checked one more candidate's documents: that paper's counts are out of date.
  const unchecked = demoCandidates.find((candidate) => !candidate.verified);
  if (unchecked) {
    await tx
      .update(candidates)
      .set({
        verified: true,
        verifiedBy: accounts.adminId,
        verifiedAt: daysBefore(now, 3),
        updatedAt: daysBefore(now, 3),
      })
      .where(and(eq(candidates.id, unchecked.id), eq(candidates.verified, false)));
  }

  await print(board(2), 'course-reg-stats', { diet: diets.current.code });
}
