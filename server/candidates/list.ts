import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { CandidateRow } from '../../contract/candidates';
import { CANDIDATES_LIST, REGISTERED_LISTS } from '../../contract/lists';
import type { Database } from '../db/client';
import { candidates, courseHeaders, trainingSchools } from '../db/schema';
import { dietIdOf } from '../diets/byCode';
import type { Paging } from '../http/paging';
import { listStatements, type ListScope, type ListSourceOf } from '../lists/route';
import type { ListQuery } from '../../contract/lists.validators';
import { registrationFeeIs, registrationFeeOf } from './registrationFee';
import { csvCellsOf, csvDateTime, csvLineParts, csvPlain } from '../lists/csvSql';
import {
  CURRENT_DIET_ID,
  registrationOf,
  regStatusFor,
  selectRows,
  selectRowsWith,
  toRow,
  type RowResult,
} from './records';

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

/** The diet a list's registrations are for: the one its `diet` filter names, or the current one. */
const dietOf = (query: ListQuery) => (query.filters.diet ? dietIdOf(query.filters.diet) : CURRENT_DIET_ID);

const candidateRows = (db: Database, query: ListQuery) => selectRows(db, dietOf(query)).$dynamic();

/**
 * The candidate lists' CSV lines (csvLineParts): candidateColumns' cells (contract/lists.ts), header by
 * header, the index number and the names quoted by the portal, the rest written by the database; a
 * candidate's school and course header quoted once a school (csvCellsOf).
 */
const schoolCells = csvCellsOf('school', trainingSchools, trainingSchools.id, candidates.trainingSchoolId, {
  code: trainingSchools.code,
  name: trainingSchools.name,
});
const courseHeaderCells = csvCellsOf(
  'course_header',
  courseHeaders,
  courseHeaders.id,
  candidates.courseHeaderId,
  {
    code: courseHeaders.code,
    title: courseHeaders.title,
  },
);
const candidateLines = csvLineParts<ListQuery>([
  ['Index number', { text: candidates.candidateIndex }],
  ['Surname', { text: candidates.last_name }],
  ['First name', { text: candidates.first_name }],
  ['Middle name', { text: candidates.middle_name }],
  ['School code', () => sql<string>`${schoolCells.code}`],
  ['School', () => sql<string>`${schoolCells.name}`],
  ['Course header', () => sql<string>`${courseHeaderCells.code}`],
  ['Course', () => sql<string>`${courseHeaderCells.title}`],
  ['Year', () => csvPlain(candidates.year)],
  // Words of REG_STATUSES, none of which needs quoting (tests/api/csv-sql.test.ts).
  ['Registration', (query) => csvPlain(regStatusFor(dietOf(query)))],
  ['Documents', () => csvPlain(sql`case when ${candidates.verified} then 'verified' else 'unverified' end`)],
  ['Indexed at', () => csvDateTime(candidates.createdAt)],
]);
const candidateLineRows = (db: Database, query: ListQuery) =>
  db
    .select({ id: candidates.id, ...candidateLines.fields(query) })
    .from(candidates)
    .innerJoinLateral(schoolCells, sql`true`)
    .innerJoinLateral(courseHeaderCells, sql`true`)
    .$dynamic();

/**
 * The candidate lists (the board's search and Indexed Candidates, and Registered Candidates for both
 * roles): newest first by id, since ids come from a sequence at indexing time, so id order is indexing
 * order, and every filter's index ends with the id (keyset paging walks it). Codes resolve in the same
 * query, through their unique btree; an unknown code matches nothing.
 */
export const candidateSource = {
  rows: candidateRows,
  matching: (db: Database) =>
    db
      .select({ one: sql`1` })
      .from(candidates)
      .$dynamic(),
  key: candidates.id,
  school: candidates.trainingSchoolId,
  search: searchConditions,
  filters: {
    school: (code: string) =>
      eq(
        candidates.trainingSchoolId,
        sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.code} = ${code})`,
      ),
    course_header: (code: string) =>
      eq(
        candidates.courseHeaderId,
        sql`(select ${courseHeaders.id} from ${courseHeaders} where ${courseHeaders.code} = ${code})`,
      ),
    year: (year: string) => eq(candidates.year, Number(year)),
    // The diet chooses whose registrations the rows and `reg_status` are about (dietOf), so as a
    // condition of its own it asks nothing.
    diet: () => sql`true`,
    reg_status: (status: string, query: ListQuery) =>
      status === 'registered'
        ? sql`exists (${registrationOf(dietOf(query), 'registered')})`
        : sql`not exists (${registrationOf(dietOf(query), 'registered')})`,
    verified: (verified: string) => eq(candidates.verified, verified === 'true'),
    registration_fee: (state: string, query: ListQuery) => registrationFeeIs(dietOf(query), state),
  },
  sorts: {
    indexed: [],
    name: [candidates.last_name, candidates.first_name],
    index_number: [candidates.candidateIndex],
  },
  toRow,
  csvLines: { headers: candidateLines.headers, parts: candidateLines.parts, rows: candidateLineRows },
} satisfies ListSourceOf<CandidateRow, string, ReturnType<typeof candidateRows>>;

/**
 * Registered Candidates (both roles): the candidate lists' rows with whether each registration's fee is
 * paid, read in the rows' own statement (registrationFeeOf), not in more round trips after it.
 */
const registeredRows = (db: Database, query: ListQuery) =>
  selectRowsWith(db, dietOf(query), { registrationFee: registrationFeeOf(dietOf(query)) }).$dynamic();

export const registeredSource = {
  ...candidateSource,
  rows: registeredRows,
  toRow: (row: RowResult & { registrationFee: 'paid' | 'unpaid' | null }): CandidateRow => ({
    ...toRow(row),
    registration_fee: row.registrationFee,
  }),
} satisfies ListSourceOf<CandidateRow, string, ReturnType<typeof registeredRows>>;

export type { ListScope };

/**
 * The SQL a candidate list request sends (`list`: Indexed Candidates or Registered Candidates; `query`:
 * its parameters), for `npm run bench` to time beside the HTTP answer (server/lists/route.ts
 * listStatements).
 */
export function candidateListStatements(
  db: Database,
  list: 'candidates' | 'registered',
  scope: ListScope,
  query: Record<string, string>,
  paging: Partial<Paging> = {},
) {
  if (list === 'candidates')
    return listStatements(db, CANDIDATES_LIST, candidateSource, scope, query, paging);
  const definition = scope.kind === 'board' ? REGISTERED_LISTS.admin : REGISTERED_LISTS.school_admin;
  return listStatements(db, definition, registeredSource, scope, query, paging);
}
