import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import {
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATE_SEARCH_MAX,
  REG_STATUSES,
  type CandidateRow,
} from '../../contract/candidates';
import type { FieldMessages } from '../../contract/envelope';
import type { Database } from '../db/client';
import { candidates, courseHeaders, trainingSchools } from '../db/schema';
import type { AppContext } from '../http/context';
import { noRows, pageQueries, readPage, readPaging, type Paging } from '../http/paging';
import { invalid, ok } from '../http/respond';
import { selectRows, toRow } from './records';

/** Words shorter than this match the start of a first or last name; longer ones anywhere (trigrams). */
const TRIGRAM_MIN = 3;
/** More words than this add nothing but work. */
const MAX_WORDS = 6;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A whole index number as typed (any case): WHB/<yy>/<course header>/<6 digits>. */
const WHOLE_INDEX_NUMBER = /^whb\/\d{2}\/[a-z0-9-]{1,20}\/\d{6}$/i;

/**
 * One condition a search word: every word must match. A whole index number is looked up by its unique
 * btree (index numbers share trigrams such as `whb`, so the trigram index would read them all).
 */
export function searchConditions(search: string): SQL[] {
  if (WHOLE_INDEX_NUMBER.test(search)) return [eq(candidates.candidateIndex, search.toUpperCase())];
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

/** A list's query parameters, by name ('' for one not given). */
type QueryOf = (name: string) => string;

/**
 * The filters of `?search=&school=&course_header=&year=&reg_status=&verified=` as conditions on
 * candidates (with the scope's school), or the field messages of what cannot be one.
 */
export function candidateFilters(
  query: QueryOf,
  scope: ListScope,
): { where: SQL | undefined } | { problems: FieldMessages } {
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
  if (Object.keys(problems).length) return { problems };

  const conditions: SQL[] = [];
  if (scope.kind === 'school') conditions.push(eq(candidates.trainingSchoolId, scope.schoolId!));
  // Codes resolve in the same query, through their unique btree; an unknown code matches nothing.
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
  return { where: conditions.length ? and(...conditions) : undefined };
}

/**
 * Candidates newest first: ids come from a sequence at indexing time, so id order is indexing order,
 * and every filter's index ends with the id (keyset paging walks it).
 */
function candidateSource(db: Database, where: SQL | undefined) {
  return {
    rows: () => selectRows(db).$dynamic(),
    matching: () =>
      db
        .select({ one: sql`1` })
        .from(candidates)
        .$dynamic(),
    where,
    order: { key: candidates.id },
  };
}

/** GET of a candidate list: the filters above and `&page=&per_page=&after=&before=` (server/http/paging). */
export async function listCandidates(c: AppContext, scope: ListScope) {
  const filters = candidateFilters((name) => (c.req.query(name) ?? '').trim(), scope);
  if ('problems' in filters) return invalid(c, filters.problems);
  const paging = readPaging(c);
  if (scope.kind === 'school' && scope.schoolId === null) return ok(c, noRows<CandidateRow>(paging));
  const db = c.get('deps').database.db;
  return ok(c, await readPage(db, paging, candidateSource(db, filters.where), toRow));
}

/**
 * The SQL a candidate list request sends, for `npm run bench` to time beside the HTTP answer: the page
 * (one row more than asked), then what the total takes when the page is full: the planner's estimate,
 * and the capped count (which the portal skips when the estimate is far past the limit).
 */
export function candidateListStatements(
  db: Database,
  scope: ListScope,
  query: Record<string, string>,
  paging: Partial<Paging> = {},
): { text: string; values: unknown[] }[] {
  const filters = candidateFilters((name) => (query[name] ?? '').trim(), scope);
  if ('problems' in filters) throw new Error(`invalid list query: ${JSON.stringify(filters.problems)}`);
  const window = { page: 1, perPage: 20, offset: 0, after: null, before: null, ...paging };
  const queries = pageQueries(db, window, candidateSource(db, filters.where));
  const statement = (query: { toSQL(): { sql: string; params: unknown[] } }, prefix = '') => {
    const { sql: text, params } = query.toSQL();
    return { text: prefix + text, values: params };
  };
  return [
    statement(queries.window),
    statement(queries.matching(), 'explain (format json) '),
    statement(queries.count),
  ];
}
