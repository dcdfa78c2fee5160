import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATE_SEARCH_MAX,
  REG_STATUSES,
  type CandidateRow,
} from '../../contract/candidates';
import type { FieldMessages } from '../../contract/envelope';
import { candidates, courseHeaders, trainingSchools } from '../db/schema';
import type { AppContext } from '../http/context';
import { pageOf, readPaging } from '../http/paging';
import { invalid, ok } from '../http/respond';
import { selectRows, toRow } from './records';

/** Words shorter than this match the start of a first or last name; longer ones anywhere (trigrams). */
const TRIGRAM_MIN = 3;
/** More words than this add nothing but work. */
const MAX_WORDS = 6;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** One condition a search word: every word must match. */
export function searchConditions(search: string): SQL[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean).slice(0, MAX_WORDS);
  return words.map((word) => {
    if (word.length >= TRIGRAM_MIN) return sql`${candidates.searchText} like ${`%${escapeLike(word)}%`}`;
    const prefix = `${escapeLike(word)}%`;
    return or(
      sql`lower(${candidates.first_name}) like ${prefix}`,
      sql`lower(${candidates.last_name}) like ${prefix}`,
    )!;
  });
}

/** Whose candidates a list may show: every school's (board admins) or one school's (school admins). */
export type ListScope = { kind: 'board' } | { kind: 'school'; schoolId: number | null };

/**
 * GET of a candidate list: `?search=&school=&course_header=&year=&reg_status=&verified=&page=&per_page=`,
 * newest first, paged in SQL. One query for the page's rows (with their school and course header), and
 * one for the total, which is skipped when the page itself shows it (a short page).
 */
export async function listCandidates(c: AppContext, scope: ListScope) {
  const query = (name: string) => (c.req.query(name) ?? '').trim();
  const search = query('search');
  const school = scope.kind === 'board' ? query('school') : '';
  const courseHeader = query('course_header');
  const year = query('year');
  const regStatus = query('reg_status');
  const verified = query('verified');

  const problems: FieldMessages = {};
  if (search.length > CANDIDATE_SEARCH_MAX) problems.search = [R.tooLong];
  if (year && !/^\d{4}$/.test(year)) problems.year = [R.yearInvalid];
  if (regStatus && !(REG_STATUSES as readonly string[]).includes(regStatus)) problems.reg_status = [R.choose];
  if (verified && !['true', 'false'].includes(verified)) problems.verified = [R.choose];
  if (Object.keys(problems).length) return invalid(c, problems);

  const paging = readPaging(c);
  const db = c.get('deps').database.db;
  if (scope.kind === 'school' && scope.schoolId === null) return ok(c, pageOf([], paging, 0));

  const conditions: SQL[] = [];
  if (scope.kind === 'school') conditions.push(eq(candidates.trainingSchoolId, scope.schoolId!));
  // Codes resolve in the same query; an unknown code matches nothing.
  if (school) {
    conditions.push(
      eq(
        candidates.trainingSchoolId,
        sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.code} = ${school})`,
      ),
    );
  }
  if (courseHeader) {
    conditions.push(
      eq(
        candidates.courseHeaderId,
        sql`(select ${courseHeaders.id} from ${courseHeaders} where ${courseHeaders.code} = ${courseHeader})`,
      ),
    );
  }
  if (year) conditions.push(eq(candidates.year, Number(year)));
  if (regStatus) conditions.push(eq(candidates.regStatus, regStatus));
  if (verified) conditions.push(eq(candidates.verified, verified === 'true'));
  if (search) conditions.push(...searchConditions(search));
  const where = conditions.length ? and(...conditions) : undefined;

  // Newest first: ids come from a sequence at indexing time, so id order is indexing order, and every
  // filter's index ends with the id.
  const rows = await selectRows(db)
    .where(where)
    .orderBy(desc(candidates.id))
    .limit(paging.perPage)
    .offset(paging.offset);
  const items: CandidateRow[] = rows.map(toRow);

  let total: number;
  if (items.length > 0 && items.length < paging.perPage) total = paging.offset + items.length;
  else if (items.length === 0 && paging.offset === 0) total = 0;
  else [{ total }] = await db.select({ total: count() }).from(candidates).where(where);
  return ok(c, pageOf(items, paging, total));
}
