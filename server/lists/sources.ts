import { eq, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { notificationLink, type BoardNotification } from '../../contract/notifications';
import type { SchoolStatus } from '../../contract/schools';
import { boardToday } from '../boardDate';
import { searchConditions } from '../candidates/list';
import type { Database } from '../db/client';
import {
  candidates,
  courseHeaders,
  diets,
  examOffences,
  fees,
  notifications,
  resits,
  trainingSchools,
} from '../db/schema';
import { dietCodeIs } from '../diets/byCode';
import { containsPattern } from '../http/paging';
import { columns as courseColumns, withCounts } from '../courses/service';
import { selectDiets, toDietRow } from '../diets/service';
import { completeFees, feeSearch, selectFees, toFeeRow } from '../payments/fees';
import type { FeeKind, FeeStatus } from '../../contract/payments';
import { selectOffenders, toOffenderRow } from '../offenders/service';
import { selectResits, toResitRow } from '../resits/service';
import { schoolColumns, withAdmins } from '../schools/service';

/**
 * The server side of each list but the candidates' (server/candidates/list.ts): how its rows are
 * read, and what its definition's search, filters and sorts mean in SQL (server/lists/route.ts).
 */

/** `select 1` from a table, for a list's total. */
const one = (db: Database) => db.select({ one: sql`1` });

const schoolRows = (db: Database) => db.select(schoolColumns).from(trainingSchools).$dynamic();
const courseRows = (db: Database) => db.select(courseColumns).from(courseHeaders).$dynamic();

/** A few hundred schools: searched by code and name, ordered by name (its index), paged by number. */
export const schoolSource = {
  rows: schoolRows,
  matching: (db: Database) => one(db).from(trainingSchools).$dynamic(),
  key: trainingSchools.id,
  search: (text: string) => {
    const pattern = containsPattern(text);
    return [or(ilike(trainingSchools.code, pattern), ilike(trainingSchools.name, pattern))!];
  },
  filters: { status: (status: string) => eq(trainingSchools.status, status as SchoolStatus) },
  sorts: { name: [trainingSchools.name], code: [trainingSchools.code], state: [trainingSchools.state] },
  toRow: (row: Awaited<ReturnType<typeof schoolRows>>[number]) => ({ ...row, admins: [] }),
  // The page's admins, in one more query.
  complete: withAdmins,
};

/** Course headers: searched by code and title, ordered by code, with each one's indexed count. */
export const courseHeaderSource = {
  rows: courseRows,
  matching: (db: Database) => one(db).from(courseHeaders).$dynamic(),
  key: courseHeaders.id,
  search: (text: string) => {
    const pattern = containsPattern(text);
    return [or(ilike(courseHeaders.code, pattern), ilike(courseHeaders.title, pattern))!];
  },
  filters: {},
  sorts: { code: [courseHeaders.code], title: [courseHeaders.title] },
  toRow: (row: Awaited<ReturnType<typeof courseRows>>[number]) => ({ ...row, indexed_candidates: 0 }),
  complete: withCounts,
};

/** The exam diets (a few a year): searched by code and name, newest paper dates first. */
export const dietSource = {
  rows: selectDiets,
  matching: (db: Database) => one(db).from(diets).$dynamic(),
  key: diets.id,
  search: (text: string) => {
    const pattern = containsPattern(text);
    return [or(ilike(diets.code, pattern), ilike(diets.name, pattern))!];
  },
  filters: {},
  sorts: { papers: [diets.firstPaperOn], code: [diets.code] },
  toRow: toDietRow,
};

/** The board's fees, newest first; by diet code, status and kind. */
export const feeSource = {
  rows: selectFees,
  matching: (db: Database) => one(db).from(fees).innerJoin(diets, eq(diets.id, fees.dietId)).$dynamic(),
  key: fees.id,
  search: feeSearch,
  filters: {
    diet: dietCodeIs,
    status: (status: string) => eq(fees.status, status as FeeStatus),
    kind: (kind: string) => eq(fees.kind, kind as FeeKind),
  },
  sorts: { added: [], title: [fees.title] },
  toRow: toFeeRow,
  complete: completeFees,
};

/** Exam offences still listed, newest first, searched by the candidate's name or index number. */
export const offenderSource = {
  // Whether a sanction is in force is a question of today, in Lagos.
  rows: (db: Database) => selectOffenders(db, boardToday()),
  matching: (db: Database) =>
    one(db).from(examOffences).innerJoin(candidates, eq(candidates.id, examOffences.candidateId)).$dynamic(),
  key: examOffences.id,
  where: isNull(examOffences.removedAt),
  school: candidates.trainingSchoolId,
  search: searchConditions,
  filters: {},
  sorts: { recorded: [] },
  toRow: toOffenderRow,
};

/** Resit entries still listed, newest first; a school admin's are their school's. */
export const resitSource = {
  rows: selectResits,
  matching: (db: Database) =>
    one(db).from(resits).innerJoin(candidates, eq(candidates.id, resits.candidateId)).$dynamic(),
  key: resits.id,
  where: isNull(resits.removedAt),
  school: candidates.trainingSchoolId,
  search: searchConditions,
  filters: {},
  sorts: { added: [] },
  toRow: toResitRow,
};

/**
 * The board's unread or read notifications, newest first by the partial indexes on (created_at, id);
 * paged by number (the unread list stays short).
 */
export const notificationSource = (read: boolean) => ({
  rows: (db: Database) =>
    db
      .select({ notification: notifications, school: trainingSchools })
      .from(notifications)
      .leftJoin(trainingSchools, eq(trainingSchools.id, notifications.trainingSchoolId))
      .$dynamic(),
  matching: (db: Database) => one(db).from(notifications).$dynamic(),
  key: notifications.id,
  where: read ? isNotNull(notifications.readAt) : isNull(notifications.readAt),
  filters: {},
  sorts: { received: [notifications.createdAt] },
  toRow: ({
    notification: n,
    school,
  }: {
    notification: typeof notifications.$inferSelect;
    school: typeof trainingSchools.$inferSelect | null;
  }): BoardNotification => ({
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    school: school ? { id: school.id, code: school.code, name: school.name } : null,
    created_at: n.createdAt.toISOString(),
    read_at: n.readAt?.toISOString() ?? null,
    link: notificationLink(n.kind, { school, subject: n.subject }),
  }),
});
