import { sql } from 'drizzle-orm';
import type { BoardDashboard, SchoolDashboard } from '../../contract/dashboard';
import type { SheetState } from '../../contract/scores';
import type { Database } from '../db/client';
import {
  candidates,
  dietExtensions,
  notifications,
  paymentIssues,
  publishedResults,
  registrations,
  scoreSheets,
  trainingSchools,
} from '../db/schema';
import { broadcastsToAcknowledge } from '../broadcasts/service';
import { awaitingBoard, unreadAnswers } from '../conversations/service';
import { currentDiet, decideWindow, extensionOf } from '../diets/window';
import { SHEET_STATES, dietCandidates, lastPublishedDiet, n, published, rowsOf } from './aggregates';
import { boardSummary } from './summary';

/**
 * The Dashboard's answers (contract/dashboard.ts). The board's: the counts an index answers at once,
 * read live, and the aggregates over every candidate from the summary the job queue keeps
 * (summary.ts). A school's: read live (a school's candidates are a few hundred to a few thousand).
 * Reads only, so no transaction and no actor.
 */

export async function boardDashboard(db: Database, now: Date): Promise<BoardDashboard> {
  const diet = await currentDiet(db);
  const dietId = diet?.id ?? null;
  const { summary, at } = await boardSummary(db, now, dietId);
  const [counts] = rowsOf(
    await db.execute(sql`select
      (select count(*) from ${trainingSchools} where ${trainingSchools.status} = 'active') as schools_active,
      (select count(*) from ${trainingSchools} where ${trainingSchools.status} = 'suspended') as schools_suspended,
      (select count(*) from ${dietExtensions} where ${dietExtensions.dietId} = ${dietId ?? -1}) as extensions,
      (select coalesce(sum(${scoreSheets.flagged}), 0) from ${scoreSheets} where ${scoreSheets.dietId} = ${dietId ?? -1}) as flagged,
      (select count(*) from ${paymentIssues} where ${paymentIssues.resolvedAt} is null) as reconciliation,
      (select count(*) from ${notifications} where ${notifications.readAt} is null) as unread,
      (select json_object_agg(s.state, s.count) from (select ${scoreSheets.state} as state, count(*) as count
        from ${scoreSheets} where ${scoreSheets.dietId} = ${dietId ?? -1} group by 1) s) as sheets`),
  );
  const sheets = Object.fromEntries(SHEET_STATES.map((state) => [state, 0])) as Record<SheetState, number>;
  const counted = (typeof counts.sheets === 'string' ? JSON.parse(counts.sheets) : counts.sheets) ?? {};
  for (const [state, count] of Object.entries(counted as Record<string, unknown>)) {
    sheets[state as SheetState] = n(count);
  }
  return {
    diet: diet && { code: diet.code, name: diet.name },
    window: decideWindow(diet, null, now),
    extensions: n(counts.extensions),
    schools: { active: n(counts.schools_active), suspended: n(counts.schools_suspended) },
    candidates: summary.candidates,
    payments: summary.payments,
    scripts_awaiting_third_marker: n(counts.flagged),
    sheets,
    reconciliation_open: n(counts.reconciliation),
    unread_notifications: n(counts.unread),
    registrations_per_day: summary.registrations_per_day,
    candidates_per_course_header: summary.candidates_per_course_header,
    pass_rates: summary.pass_rates,
    counted_at: at.toISOString(),
  };
}

export async function schoolDashboard(db: Database, schoolId: number, now: Date): Promise<SchoolDashboard> {
  const diet = await currentDiet(db);
  const dietId = diet?.id ?? -1;
  // Once the diet is known, no count waits on another: asked at once (on PostgreSQL, on several of
  // the pool's connections).
  const [extension, counts, results, [ready], broadcasts, unread, open] = await Promise.all([
    diet ? extensionOf(db, diet.id, schoolId) : null,
    dietCandidates(db, diet?.id ?? null, { schoolId }),
    schoolResults(db, schoolId),
    // Candidates not registered for the diet but verified, so ready to register (the list's filter).
    db
      .execute(
        sql`select count(*) as count from ${candidates} where ${candidates.trainingSchoolId} = ${schoolId}
      and ${candidates.verified} and not exists (select 1 from ${registrations} where ${registrations.dietId} = ${dietId}
      and ${registrations.candidateId} = ${candidates.id} and ${registrations.regStatus} = 'registered')`,
      )
      .then(rowsOf),
    broadcastsToAcknowledge(db, schoolId),
    unreadAnswers(db, schoolId),
    awaitingBoard(db, schoolId),
  ]);
  return {
    diet: diet && { code: diet.code, name: diet.name },
    window: decideWindow(diet, extension, now),
    candidates: { ...counts, unverified: counts.indexed - counts.verified, unregistered: n(ready.count) },
    results,
    broadcasts_to_acknowledge: broadcasts,
    messages_with_board: { unread_answers: unread, open },
  };
}

/** The school's published results of the last diet it has any for. */
async function schoolResults(db: Database, schoolId: number): Promise<SchoolDashboard['results']> {
  const resultsDiet = await lastPublishedDiet(db, { schoolId });
  if (!resultsDiet) return null;
  const [row] = rowsOf(
    await db.execute(sql`select count(*) as results, count(*) filter (where ${publishedResults.outcome} = 'pass') as passed
      from ${publishedResults} where ${published(resultsDiet.id)} and ${publishedResults.trainingSchoolId} = ${schoolId}`),
  );
  return {
    diet: { code: resultsDiet.code, name: resultsDiet.name },
    results: n(row.results),
    passed: n(row.passed),
  };
}
