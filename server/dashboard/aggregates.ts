import { sql, type SQL } from 'drizzle-orm';
import {
  PASS_RATE_SCHOOLS,
  REGISTRATION_DAYS,
  type BoardDashboard,
  type CourseHeaderCount,
  type DayCount,
  type DietRef,
} from '../../contract/dashboard';
import { boardDay } from '../../contract/format';
import type { SheetState } from '../../contract/scores';
import { startOfBoardDay, startOfBoardWeek } from '../boardDate';
import type { Database } from '../db/client';
import {
  candidates,
  courseHeaders,
  fees,
  paymentItems,
  payments,
  diets,
  publishedResults,
  registrations,
  resultPublications,
  trainingSchools,
} from '../db/schema';

/**
 * The Dashboard's aggregates (contract/dashboard.ts), each counted as the list it links to counts it:
 * the candidates of a diet by status (the board's or one school's), registrations per day, candidates
 * per course header, and pass rates by school of the last published diet.
 */

export const SHEET_STATES: readonly SheetState[] = [
  'open',
  'marker_one_submitted',
  'marker_two_submitted',
  'reconciling',
  'locked',
  'published',
];

export const n = (value: unknown) => Number(value ?? 0);

type Scope = { schoolId: number | null };

/** `and <column> = school` when scoped to a school. */
const ofSchool = (column: SQL | typeof candidates.trainingSchoolId, scope: Scope) =>
  scope.schoolId === null ? sql`` : sql` and ${column} = ${scope.schoolId}`;

/** Candidates for a diet (null: none current), counted as the candidate lists count them. */
export async function dietCandidates(db: Database, dietId: number | null, scope: Scope) {
  const diet = sql`${dietId ?? -1}`;
  const school = ofSchool(candidates.trainingSchoolId, scope);
  const registered = sql`${registrations.dietId} = ${diet} and ${registrations.regStatus} = 'registered'`;
  // The diet's registration fees (a handful): whose credit counts as paid, which course headers are charged.
  const feeRows = rowsOf(
    await db.execute(sql`select ${fees.id} as id, ${fees.status} as status, ${fees.courseHeaderIds} as headers
      from ${fees} where ${fees.dietId} = ${diet} and ${fees.kind} = 'registration' and ${fees.basis} = 'candidate'`),
  );
  const feeIds = feeRows.map((fee) => n(fee.id));
  const active = feeRows.filter((fee) => fee.status === 'active');
  const everyHeader = active.some((fee) => !(fee.headers as number[]).length);
  const chargedHeaders = [...new Set(active.flatMap((fee) => fee.headers as number[]))];
  const ids = (values: number[]) =>
    sql`array[${sql.join([sql`-1`, ...values.map((v) => sql`${v}`)], sql`, `)}]::int[]`;
  const paid = sql`exists (select 1 from ${paymentItems} where ${paymentItems.candidateId} = ${registrations.candidateId}
    and ${paymentItems.credited} and ${paymentItems.feeId} = any(${ids(feeIds)}))`;
  const charged = everyHeader ? sql`true` : sql`${candidates.courseHeaderId} = any(${ids(chargedHeaders)})`;
  const [row] = rowsOf(
    await db.execute(sql`select
      (select count(*) from ${candidates} where true${school}) as indexed,
      (select count(*) from ${candidates} where ${candidates.verified}${school}) as verified,
      (select count(*) from ${registrations}
        join ${candidates} on ${candidates.id} = ${registrations.candidateId} where ${registered}${school}) as registered,
      (select count(*) from ${registrations} join ${candidates} on ${candidates.id} = ${registrations.candidateId}
        where ${registered}${school} and ${paid}) as paid,
      (select count(*) from ${registrations} join ${candidates} on ${candidates.id} = ${registrations.candidateId}
        where ${registered}${school} and ${charged} and not ${paid}) as unpaid`),
  );
  return {
    indexed: n(row.indexed),
    verified: n(row.verified),
    registered: n(row.registered),
    paid: n(row.paid),
    unpaid: active.length ? n(row.unpaid) : 0,
  };
}

/** Money in since midnight and since Monday's midnight, Lagos time (the paid payments, by paid_at). */
export async function paymentsIn(db: Database, now: Date): Promise<BoardDashboard['payments']> {
  const today = boardDay(now);
  const [row] = rowsOf(
    await db.execute(sql`select count(*) filter (where ${payments.paidAt} >= ${startOfBoardDay(today).toISOString()}) as today_count,
        coalesce(sum(${payments.amountKobo}) filter (where ${payments.paidAt} >= ${startOfBoardDay(today).toISOString()}), 0) as today_amount,
        count(*) as week_count, coalesce(sum(${payments.amountKobo}), 0) as week_amount
      from ${payments} where ${payments.status} = 'paid' and ${payments.paidAt} >= ${startOfBoardWeek(today).toISOString()}`),
  );
  return {
    today: { count: n(row.today_count), amount_kobo: n(row.today_amount) },
    week: { count: n(row.week_count), amount_kobo: n(row.week_amount) },
  };
}

/** drizzle's execute answers rows (node-postgres: `.rows`; PGlite: `.rows` too). */
export const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

export async function registrationsPerDay(db: Database, dietId: number, now: Date): Promise<DayCount[]> {
  const today = boardDay(now);
  const first = new Date(`${today}T12:00:00Z`);
  first.setUTCDate(first.getUTCDate() - (REGISTRATION_DAYS - 1));
  const firstDay = first.toISOString().slice(0, 10);
  const rows = rowsOf(
    await db.execute(sql`select to_char(${registrations.createdAt} at time zone 'Africa/Lagos', 'YYYY-MM-DD') as day,
        count(*) as count from ${registrations}
      where ${registrations.dietId} = ${dietId} and ${registrations.regStatus} = 'registered'
        and ${registrations.createdAt} >= ${startOfBoardDay(firstDay).toISOString()}
      group by 1`),
  );
  const byDay = new Map(rows.map((row) => [String(row.day), n(row.count)]));
  const days: DayCount[] = [];
  for (let i = 0; i < REGISTRATION_DAYS; i++) {
    const day = new Date(first);
    day.setUTCDate(first.getUTCDate() + i);
    const key = day.toISOString().slice(0, 10);
    days.push({ day: key, count: byDay.get(key) ?? 0 });
  }
  return days;
}

export async function perCourseHeader(db: Database, dietId: number | null): Promise<CourseHeaderCount[]> {
  const rows = rowsOf(
    await db.execute(sql`select ${courseHeaders.code} as code, ${courseHeaders.title} as title,
        (select count(*) from ${candidates} where ${candidates.courseHeaderId} = ${courseHeaders.id}) as indexed,
        (select count(*) from ${registrations} join ${candidates} on ${candidates.id} = ${registrations.candidateId}
          where ${registrations.dietId} = ${dietId ?? -1} and ${registrations.regStatus} = 'registered'
          and ${candidates.courseHeaderId} = ${courseHeaders.id}) as registered
      from ${courseHeaders} order by ${courseHeaders.code}`),
  );
  return rows.map((row) => ({
    code: String(row.code),
    title: String(row.title),
    indexed: n(row.indexed),
    registered: n(row.registered),
  }));
}

/** The last diet with results published and not withdrawn (for a school: with results of theirs). */
export async function lastPublishedDiet(
  db: Database,
  scope: Scope,
): Promise<(DietRef & { id: number }) | null> {
  const school =
    scope.schoolId === null
      ? sql``
      : sql` and exists (select 1 from ${publishedResults} where ${publishedResults.dietId} = ${resultPublications.dietId}
          and ${publishedResults.courseHeaderId} = ${resultPublications.courseHeaderId}
          and ${publishedResults.trainingSchoolId} = ${scope.schoolId})`;
  const [row] = rowsOf(
    await db.execute(sql`select ${diets.id} as id, ${diets.code} as code, ${diets.name} as name
      from ${resultPublications} join ${diets} on ${diets.id} = ${resultPublications.dietId}
      where ${resultPublications.withdrawnAt} is null and ${resultPublications.publishedAt} is not null${school}
      order by ${resultPublications.publishedAt} desc limit 1`),
  );
  return row ? { id: n(row.id), code: String(row.code), name: String(row.name) } : null;
}

/** Published, not withdrawn: the rows a school reads (as the results lists show them). */
export const published = (dietId: number) =>
  sql`${publishedResults.dietId} = ${dietId} and exists (select 1 from ${resultPublications}
    where ${resultPublications.dietId} = ${publishedResults.dietId} and ${resultPublications.courseHeaderId} = ${publishedResults.courseHeaderId}
    and ${resultPublications.withdrawnAt} is null)`;

export async function passRates(db: Database): Promise<BoardDashboard['pass_rates']> {
  const diet = await lastPublishedDiet(db, { schoolId: null });
  if (!diet) return null;
  const rows = rowsOf(
    await db.execute(sql`select ${trainingSchools.code} as code, ${trainingSchools.name} as name, s.results, s.passed
      from (select ${publishedResults.trainingSchoolId} as school, count(*) as results,
              count(*) filter (where ${publishedResults.outcome} = 'pass') as passed
            from ${publishedResults} where ${published(diet.id)} group by 1) s
      join ${trainingSchools} on ${trainingSchools.id} = s.school
      order by s.results desc, ${trainingSchools.code}`),
  );
  const schools = rows.map((row) => ({
    code: String(row.code),
    name: String(row.name),
    results: n(row.results),
    passed: n(row.passed),
  }));
  return {
    diet: { code: diet.code, name: diet.name },
    results: schools.reduce((sum, s) => sum + s.results, 0),
    passed: schools.reduce((sum, s) => sum + s.passed, 0),
    schools: schools.slice(0, PASS_RATE_SCHOOLS),
  };
}
