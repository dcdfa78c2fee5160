import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  MARKERS,
  PAPER_FOLD,
  RESULT_INPUTS,
  RESULT_OUTPUTS,
  SCRIPT_INPUTS,
  SCRIPT_RULE,
  resultRule,
} from '../../contract/resultRule';
import type { ResultOutcome } from '../../contract/scores';
import type { Database } from '../db/client';
import { examOffences, results, scoreSheets } from '../db/schema';
import { sanctionCovers } from '../sanctions';
import { mayRead } from './blind';
import { resultRulesOf } from './papers';
import { compileAggregate, layered, named } from './ruleSql';

/**
 * A diet and course header's results computed where the marks are: contract/resultRule.ts's rule
 * compiled to SQL (server/scores/ruleSql.ts) over the pair's registered candidates, each paper's
 * script (marker one's, two's and the third's rows), the in-course totals, the withheld and the held.
 * Which sheets' marks it may compare is asked of server/scores/blind.ts, sheet by sheet, before the
 * statement is made: a sheet still blind gives no script (incomplete), as the rule says.
 * tests/api/results-sql.test.ts checks it against the same rule evaluated in TypeScript
 * (server/scores/computeInProcess.ts) on every edge of the rule, on PGlite and PostgreSQL.
 */

export type ComputedRow = typeof results.$inferInsert;

const ints = (ids: number[]): SQL => {
  if (!ids.every(Number.isSafeInteger)) throw new Error('Not ids');
  return ids.length ? sql.raw(`(${ids.join(', ')})`) : sql.raw('(null)');
};

const Q = [1, 2, 3, 4, 5];
const MARKER_NUMBER = { one: 1, two: 2, three: 3 } as const;

/** The select of a pair's results (the columns of `results` but its id and time), for all or `only`. */
async function resultsSelect(tx: Database, dietId: number, courseHeaderId: number, only?: number[]) {
  const rules = await resultRulesOf(tx, courseHeaderId);
  const sheets = await tx
    .select()
    .from(scoreSheets)
    .where(and(eq(scoreSheets.dietId, dietId), eq(scoreSheets.courseHeaderId, courseHeaderId)));
  const exams = sheets.filter((s) => s.kind === 'exam');
  const paperIds = [...new Set(exams.map((s) => s.paperId!))];
  // Blind marking's one place: only the sheets whose agreement may be read now give scripts.
  const readable = exams.filter((s) => mayRead(s, 'agreement', null)).map((s) => s.id);
  const inCourse = sheets.filter((s) => s.kind === 'in_course').map((s) => s.id);

  const roster = sql`select c.id, c.training_school_id as school
    from registrations r join candidates c on c.id = r.candidate_id
    where r.diet_id = ${dietId} and r.reg_status = 'registered' and c.course_header_id = ${courseHeaderId}
      ${only ? sql`and c.id in ${ints(only)}` : sql``}`;

  const marker = (m: (typeof MARKERS)[number]) => {
    const t = sql.raw(`m${MARKER_NUMBER[m]}`);
    return sql.join(
      [
        sql`${t}.candidate_id is not null as ${named(`${m}_present`)}`,
        sql`${t}.absent as ${named(`${m}_absent`)}`,
        ...Q.map((i) => sql`${t}.q${sql.raw(String(i))} as ${named(`${m}_q${i}`)}`),
      ],
      sql`, `,
    );
  };
  const scriptsBase = sql`select ro.id as candidate_id,
      ${sql.join(
        Q.map((i) => sql`p.q_max[${sql.raw(String(i))}] as ${named(`qmax${i}`)}`),
        sql`, `,
      )},
      p.tolerance_question as tol_q, p.tolerance_total as tol_t,
      ${sql.join(MARKERS.map(marker), sql`, `)}
    from roster ro
    join papers p on p.id in ${ints(paperIds)}
    left join score_sheets s on s.paper_id = p.id and s.id in ${ints(readable)}
      and (s.training_school_id is null or s.training_school_id = ro.school)
    ${sql.join(
      MARKERS.map((m) => {
        const t = sql.raw(`m${MARKER_NUMBER[m]}`);
        return sql`left join script_marks ${t} on ${t}.sheet_id = s.id and ${t}.candidate_id = ro.id
          and ${t}.marker = ${sql.raw(String(MARKER_NUMBER[m]))}`;
      }),
      sql` `,
    )}`;
  const folded = sql`select l.candidate_id, ${sql.join(
    Object.entries(PAPER_FOLD).map(([name, agg]) => sql`${compileAggregate(agg)} as ${named(name)}`),
    sql`, `,
  )} from (${layered(scriptsBase, SCRIPT_RULE)}) l group by l.candidate_id`;

  const resultBase = sql`select ro.id as candidate_id, ro.school as training_school_id,
      ${sql.raw(paperIds.length ? 'true' : 'false')} as has_papers,
      ${sql.join(
        Object.keys(PAPER_FOLD).map((name) => sql`f.${named(name)}`),
        sql`, `,
      )},
      ${sql.raw(inCourse.length ? 'true' : 'false')} as has_in_course, ic.total as in_course,
      exists (select 1 from ${examOffences} where ${examOffences.candidateId} = ro.id
        and ${examOffences.removedAt} is null
        and (${examOffences.dietId} = ${dietId} or ${sanctionCovers(dietId)})) as withheld,
      h.reason is not null as held, h.reason as hold_reason
    from roster ro
    left join folded f on f.candidate_id = ro.id
    left join (select candidate_id, max(total_score) as total from in_course_scores
      where sheet_id in ${ints(inCourse)} group by candidate_id) ic on ic.candidate_id = ro.id
    left join result_holds h on h.diet_id = ${dietId} and h.candidate_id = ro.id and h.released_at is null`;

  // RESULT_INPUTS are the base's columns (a rename in the contract fails here, not in a wrong row).
  void RESULT_INPUTS.map(named);
  void SCRIPT_INPUTS.map(named);
  return sql`with roster as (${roster}), folded as (${folded})
    select ${dietId}::int as diet_id, ${courseHeaderId}::int as course_header_id,
      r.candidate_id, r.training_school_id,
      ${sql.join(
        RESULT_OUTPUTS.map((name) => sql`r.${named(name)}`),
        sql`, `,
      )}
    from (${layered(resultBase, resultRule(rules))}) r`;
}

type SelectedRow = {
  diet_id: number;
  course_header_id: number;
  candidate_id: number;
  training_school_id: number;
  exam_mark: number | null;
  in_course_mark: number | null;
  final_mark: number | null;
  grade: string | null;
  outcome: ResultOutcome;
  note: string | null;
};

/** The pair's results as computed now, read without writing (a preview). */
export async function resultRowsOf(
  tx: Database,
  dietId: number,
  courseHeaderId: number,
): Promise<ComputedRow[]> {
  const { rows } = (await tx.execute(await resultsSelect(tx, dietId, courseHeaderId))) as unknown as {
    rows: SelectedRow[];
  };
  return rows.map((row) => ({
    dietId: row.diet_id,
    courseHeaderId: row.course_header_id,
    candidateId: row.candidate_id,
    trainingSchoolId: row.training_school_id,
    examMark: row.exam_mark,
    inCourseMark: row.in_course_mark,
    finalMark: row.final_mark,
    grade: row.grade,
    outcome: row.outcome,
    note: row.note,
  }));
}

/**
 * Computes (again) the results of a diet and course header, for every registered candidate of it or
 * for the ones named, into `results` (the board's working copy; never what the schools read): one
 * delete and one `insert … select`, in the caller's transaction. Returns how many rows it wrote.
 */
export async function computeResults(
  tx: Database,
  dietId: number,
  courseHeaderId: number,
  only?: number[],
): Promise<number> {
  const select = await resultsSelect(tx, dietId, courseHeaderId, only);
  await tx.execute(sql`delete from ${results} where ${results.dietId} = ${dietId}
    and ${results.courseHeaderId} = ${courseHeaderId} ${only ? sql`and ${results.candidateId} in ${ints(only)}` : sql``}`);
  const written = await tx.execute(sql`insert into ${results} (diet_id, course_header_id, candidate_id,
      training_school_id, exam_mark, in_course_mark, final_mark, grade, outcome, note) ${select}`);
  // PGlite says affectedRows, node-postgres rowCount.
  const said = written as unknown as { affectedRows?: number; rowCount?: number | null };
  return said.affectedRows ?? said.rowCount ?? 0;
}
