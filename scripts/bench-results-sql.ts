import { DEFAULT_RESULT_RULES } from '../contract/scores';
import type { RawSql } from './bench-candidates';

/**
 * The yardstick of issue 28's item 5: a diet's results written by hand as one `insert … select` (every
 * course header at once), with the rule of contract/resultRule.ts spelled out in SQL, for the course
 * headers' default rules (DEFAULT_RESULT_RULES: the bench sets none). It is the comparison the bench
 * prints beside the portal's computation, and its rows are checked against the portal's by a hash.
 */

const { in_course_weight: W, pass_mark: PASS, grade_bands: BANDS } = DEFAULT_RESULT_RULES;
const grade = (x: string) =>
  `case ${BANDS.map((b) => `when ${x} >= ${b.min * 10} then '${b.grade}'`).join(' ')} else '${BANDS[BANDS.length - 1].grade}' end`;
const total = (m: string) =>
  `case when ${m}.absent then null else ${[1, 2, 3, 4, 5]
    .map((i) => `case when p.q_max[${i}] = 0 then 0 else ${m}.q${i} end`)
    .join(' + ')} end`;

const ONE_STATEMENT = `
insert into results (diet_id, course_header_id, candidate_id, training_school_id, exam_mark, in_course_mark,
  final_mark, grade, outcome, note)
with ro as (
  select c.id, c.training_school_id as school, c.course_header_id as ch
  from registrations r join candidates c on c.id = r.candidate_id
  where r.diet_id = $1 and r.reg_status = 'registered'
), scripts as (
  select ro.id as cand, p.q_max[1] + p.q_max[2] + p.q_max[3] + p.q_max[4] + p.q_max[5] as mx,
    m1.candidate_id is not null as h1, m2.candidate_id is not null as h2, m3.candidate_id is not null as h3,
    m1.absent as a1, m2.absent as a2, m3.absent as a3,
    ${total('m1')} as t1, ${total('m2')} as t2, ${total('m3')} as t3,
    ${[1, 2, 3, 4, 5].map((i) => `(p.q_max[${i}] <> 0 and abs(m1.q${i} - m2.q${i}) > p.tolerance_question)`).join(' or ')} as qfar,
    p.tolerance_total as tt
  from ro
  join papers p on p.id in (select paper_id from score_sheets where diet_id = $1 and course_header_id = ro.ch
    and kind = 'exam')
  left join score_sheets s on s.paper_id = p.id and s.diet_id = $1
    and s.marker_one_submitted_at is not null and s.marker_two_submitted_at is not null
    and (s.training_school_id is null or s.training_school_id = ro.school)
  left join script_marks m1 on m1.sheet_id = s.id and m1.candidate_id = ro.id and m1.marker = 1
  left join script_marks m2 on m2.sheet_id = s.id and m2.candidate_id = ro.id and m2.marker = 2
  left join script_marks m3 on m3.sheet_id = s.id and m3.candidate_id = ro.id and m3.marker = 3
  offset 0
), firsts as (
  select cand, mx, t1, t2, t3, h3, a3,
    case when not (h1 and h2) then 'incomplete' when a1 and a2 then 'absent' when a1 <> a2 then 'flagged'
      when t1 is null or t2 is null then 'incomplete' when qfar or abs(t1 - t2) > tt then 'flagged'
      else 'agreed' end as k1
  from scripts offset 0
), decided as (
  select cand, mx,
    case when k1 <> 'flagged' then k1 when not h3 then 'flagged' when a3 then 'absent'
      when t3 is null then 'incomplete' else 'agreed' end as kind,
    case when k1 = 'agreed' then (t1 + t2 + 1) / 2 when k1 <> 'flagged' or not h3 or a3 or t3 is null then null
      when t1 is null and t2 is null then t3
      else (case when t1 is null then t2 when t2 is null then t1 when abs(t1 - t3) < abs(t2 - t3) then t1
        when abs(t2 - t3) < abs(t1 - t3) then t2 else greatest(t1, t2) end + t3 + 1) / 2 end as tot
  from firsts
), fold as (
  select cand, bool_or(kind = 'absent') as absent, bool_or(kind in ('incomplete', 'flagged')) as unsettled,
    sum(tot)::int as got, sum(mx)::int as mx
  from decided group by cand
), cands as (
  select ro.id, ro.school, ro.ch,
    exists (select 1 from score_sheets where diet_id = $1 and course_header_id = ro.ch and kind = 'exam') as hp,
    exists (select 1 from score_sheets where diet_id = $1 and course_header_id = ro.ch and kind = 'in_course') as hic,
    (select max(i.total_score) from in_course_scores i join score_sheets s on s.id = i.sheet_id
      where s.diet_id = $1 and s.course_header_id = ro.ch and s.kind = 'in_course' and i.candidate_id = ro.id) as ic,
    exists (select 1 from exam_offences o where o.candidate_id = ro.id and o.removed_at is null and o.diet_id = $1) as wh,
    h.reason as hold,
    f.absent, f.unsettled, f.got, f.mx
  from ro left join fold f on f.cand = ro.id
  left join result_holds h on h.diet_id = $1 and h.candidate_id = ro.id and h.released_at is null
), marks as (
  select *,
    case when not hp then 'incomplete' when absent then 'absent' when unsettled then 'incomplete'
      when hic and ${W} > 0 and ic is null then 'incomplete' end as pending,
    case when hp and not absent and not unsettled and mx > 0 then (got * 1000 + mx - 1) / mx end as exam,
    case when hic then ic end as icu
  from cands offset 0
), finals as (
  select *, case when pending is null and exam is not null then
      case when icu is null then exam else (exam * ${100 - W} + icu * ${W} + 99) / 100 end end as fin
  from marks offset 0
)
select $1, ch, id, school,
  case when wh or hold is not null then null else exam end,
  case when wh or hold is not null or fin is null then null else icu end,
  case when wh or hold is not null then null else fin end,
  case when wh or hold is not null or fin is null then null else ${grade('fin')} end,
  case when wh then 'withheld' when hold is not null then 'held' when pending is not null then pending
    when fin >= ${PASS * 10} then 'pass' else 'fail' end,
  case when wh then 'Under an exam sanction for this diet, or an offence recorded at it.' else hold end
from finals`;

/** The one statement's results for the diet, in place of what is there (the delete is not timed). */
export async function oneStatement(raw: RawSql, dietId: number): Promise<number> {
  await raw.query('delete from results where diet_id = $1', [dietId]);
  const started = performance.now();
  await raw.query(ONE_STATEMENT, [dietId]);
  return (performance.now() - started) / 1000;
}

/** A hash over every result of the diet (each column, nulls spelled), in one order. */
export async function resultsHash(raw: RawSql, dietId: number): Promise<{ rows: number; hash: string }> {
  const { rows } = await raw.query(
    `select count(*)::int as rows, md5(string_agg(concat_ws('|', course_header_id, candidate_id, training_school_id,
        coalesce(exam_mark::text, '-'), coalesce(in_course_mark::text, '-'), coalesce(final_mark::text, '-'),
        coalesce(grade, '-'), outcome, coalesce(note, '-')), E'\\n' order by course_header_id, candidate_id)) as hash
     from results where diet_id = $1`,
    [dietId],
  );
  return rows[0] as { rows: number; hash: string };
}
