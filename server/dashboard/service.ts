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
  const extension = diet ? await extensionOf(db, diet.id, schoolId) : null;
  const counts = await dietCandidates(db, diet?.id ?? null, { schoolId });
  const resultsDiet = await lastPublishedDiet(db, { schoolId });
  let results: SchoolDashboard['results'] = null;
  if (resultsDiet) {
    const [row] = rowsOf(
      await db.execute(sql`select count(*) as results, count(*) filter (where ${publishedResults.outcome} = 'pass') as passed
        from ${publishedResults} where ${published(resultsDiet.id)} and ${publishedResults.trainingSchoolId} = ${schoolId}`),
    );
    results = {
      diet: { code: resultsDiet.code, name: resultsDiet.name },
      results: n(row.results),
      passed: n(row.passed),
    };
  }
  // Candidates not registered for the diet but verified, so ready to register (the list's filter).
  const [ready] = rowsOf(
    await db.execute(sql`select count(*) as count from ${candidates} where ${candidates.trainingSchoolId} = ${schoolId}
      and ${candidates.verified} and not exists (select 1 from ${registrations} where ${registrations.dietId} = ${diet?.id ?? -1}
      and ${registrations.candidateId} = ${candidates.id} and ${registrations.regStatus} = 'registered')`),
  );
  return {
    diet: diet && { code: diet.code, name: diet.name },
    window: decideWindow(diet, extension, now),
    candidates: { ...counts, unverified: counts.indexed - counts.verified, unregistered: n(ready.count) },
    results,
    broadcasts_to_acknowledge: await broadcastsToAcknowledge(db, schoolId),
    messages_with_board: {
      unread_answers: await unreadAnswers(db, schoolId),
      open: await awaitingBoard(db, schoolId),
    },
  };
}
