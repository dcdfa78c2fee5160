import { sql } from 'drizzle-orm';
import type { BoardDashboard } from '../../contract/dashboard';
import type { Database } from '../db/client';
import { dashboardSummaries } from '../db/schema';
import { currentDiet } from '../diets/window';
import { dietCandidates, passRates, paymentsIn, perCourseHeader, registrationsPerDay } from './aggregates';

/**
 * The board's aggregates over every candidate, counted by the `dashboard-summary` job each minute and
 * stored (dashboard_summaries), so the dashboard reads one row instead of passing over 100,000
 * candidates and their registrations at each visit. Counting is idempotent (an upsert of the same
 * answer), so two processes' runs at once do no harm.
 */

type BoardSummary = Pick<
  BoardDashboard,
  'candidates' | 'payments' | 'registrations_per_day' | 'candidates_per_course_header' | 'pass_rates'
> & {
  /** The diet and the board day they were counted for: another makes them stale at once. */
  diet_id: number | null;
  day: string;
};

/** How old a summary may be before a visit counts again itself (the job runs each minute). */
const SUMMARY_MAX_AGE_MS = 5 * 60_000;

async function countSummary(db: Database, now: Date): Promise<BoardSummary> {
  const diet = await currentDiet(db);
  const dietId = diet?.id ?? null;
  return {
    diet_id: dietId,
    day: dayOf(now),
    candidates: await dietCandidates(db, dietId, { schoolId: null }),
    payments: await paymentsIn(db, now),
    registrations_per_day: dietId === null ? [] : await registrationsPerDay(db, dietId, now),
    candidates_per_course_header: await perCourseHeader(db, dietId),
    pass_rates: await passRates(db),
  };
}

const dayOf = (now: Date) => new Date(now.getTime() + 3_600_000).toISOString().slice(0, 10);

/** Counts the summary now and stores it (the job, and a visit that found none fresh). */
export async function refreshSummary(db: Database, now: Date): Promise<{ summary: BoardSummary; at: Date }> {
  const summary = await countSummary(db, now);
  await db
    .insert(dashboardSummaries)
    .values({ scope: 'board', data: summary, countedAt: now })
    .onConflictDoUpdate({
      target: dashboardSummaries.scope,
      set: { data: summary, countedAt: now },
      // A run that started earlier never overwrites a later one's counts.
      setWhere: sql`${dashboardSummaries.countedAt} <= ${now.toISOString()}`,
    });
  return { summary, at: now };
}

/**
 * The stored summary when it is for the current diet and today and younger than SUMMARY_MAX_AGE_MS;
 * otherwise counted now (the first visit after a start, a diet made current, a job queue that stopped).
 */
export async function boardSummary(
  db: Database,
  now: Date,
  currentDietId: number | null,
): Promise<{ summary: BoardSummary; at: Date }> {
  const [row] = await db
    .select()
    .from(dashboardSummaries)
    .where(sql`${dashboardSummaries.scope} = 'board'`);
  if (row) {
    const summary = row.data as BoardSummary;
    const fresh = now.getTime() - row.countedAt.getTime() < SUMMARY_MAX_AGE_MS;
    if (fresh && summary.diet_id === currentDietId && summary.day === dayOf(now)) {
      return { summary, at: row.countedAt };
    }
  }
  return refreshSummary(db, now);
}
