import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  DUPLICATES_PER_PAGE,
  INTEGRITY_MESSAGES as M,
  type DuplicatePair,
  type DuplicateReport,
  type DuplicateSide,
} from '../../contract/integrity';
import { changeAudited, type Actor } from '../audit';
import type { Database } from '../db/client';
import { duplicatePairs } from '../db/schema';
import { PRINT_PHOTO_FIELD } from '../candidates/uploads';

type Rows<T> = { rows: T[] };

/** A side as the query reads it: the school's code and name in columns of their own. */
type SideRow = Omit<DuplicateSide, 'school'> & { school_code: string; school_name: string };

/** The sides of some candidates, by id: identity, school, year, photo and whether they are an offender. */
async function sidesOf(db: Database, ids: number[]): Promise<Map<number, DuplicateSide>> {
  if (!ids.length) return new Map();
  const { rows } = (await db.execute(sql`
    select c.id, c.candidate_index, c.first_name, c.middle_name, c.last_name, c.date_of_birth::text as date_of_birth,
           c.gender, c.year, s.code as school_code, s.name as school_name, h.code as course_header,
           coalesce(
             (select key from files where candidate_id = c.id and field = ${PRINT_PHOTO_FIELD}),
             (select key from files where candidate_id = c.id and field = 'photo')) as photo,
           exists (select 1 from exam_offences o where o.candidate_id = c.id and o.removed_at is null) as offender
    from candidates c
    join training_schools s on s.id = c.training_school_id
    join course_headers h on h.id = c.course_header_id
    where c.id = any(${`{${ids.join(',')}}`}::int[])`)) as unknown as Rows<SideRow>;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        candidate_index: row.candidate_index,
        first_name: row.first_name,
        middle_name: row.middle_name,
        last_name: row.last_name,
        date_of_birth: row.date_of_birth,
        gender: row.gender,
        year: Number(row.year),
        school: { code: row.school_code, name: row.school_name },
        course_header: row.course_header,
        photo: row.photo,
        offender: row.offender,
      },
    ]),
  );
}

/**
 * The report: pairs not marked 'not the same person', those with an offender first, then those sharing
 * both photo and identity, then the newest found; a page at a time.
 */
export async function duplicateReport(db: Database, page = 1): Promise<DuplicateReport> {
  const offset = (page - 1) * DUPLICATES_PER_PAGE;
  const { rows } = (await db.execute(sql`
    select p.id, p.candidate_a, p.candidate_b, p.same_photo, p.same_identity, p.photo_likeness,
           p.found_at, exists (select 1 from exam_offences o
                               where o.candidate_id in (p.candidate_a, p.candidate_b) and o.removed_at is null) as offender
    from duplicate_pairs p
    where p.not_same_at is null
    order by offender desc, (p.same_photo and p.same_identity) desc, p.found_at desc, p.id desc
    limit ${DUPLICATES_PER_PAGE} offset ${offset}`)) as unknown as Rows<{
    id: number;
    candidate_a: number;
    candidate_b: number;
    same_photo: boolean;
    same_identity: boolean;
    photo_likeness: number | null;
    found_at: string | Date;
    offender: boolean;
  }>;
  const sides = await sidesOf(
    db,
    rows.flatMap((row) => [row.candidate_a, row.candidate_b]),
  );
  const pairs: DuplicatePair[] = rows.map((row) => ({
    id: row.id,
    same_photo: row.same_photo,
    same_identity: row.same_identity,
    photo_likeness: row.photo_likeness === null ? null : Math.round(Number(row.photo_likeness) * 1000) / 1000,
    offender: row.offender,
    found_at: new Date(row.found_at).toISOString(),
    candidates: [sides.get(row.candidate_a)!, sides.get(row.candidate_b)!],
  }));
  const {
    rows: [counts],
  } = (await db.execute(sql`
    select (select count(*) from duplicate_pairs where not_same_at is null)::int as total,
           (select count(*) from integrity_pending)::int as waiting`)) as unknown as Rows<{
    total: number;
    waiting: number;
  }>;
  const { rows: scans } = (await db.execute(sql`
    select finished_at, candidates, pairs, ms from integrity_scans where id = 1`)) as unknown as Rows<{
    finished_at: string | Date;
    candidates: number;
    pairs: number;
    ms: number;
  }>;
  return {
    pairs,
    total: counts.total,
    page,
    per_page: DUPLICATES_PER_PAGE,
    last_scan: scans[0]
      ? {
          finished_at: new Date(scans[0].finished_at).toISOString(),
          candidates: scans[0].candidates,
          pairs: scans[0].pairs,
          ms: scans[0].ms,
        }
      : null,
    waiting: counts.waiting,
  };
}

/** Marks a pair 'not the same person' (audited, with both candidates): no run reports it again. */
export async function markNotSame(tx: Database, actor: Actor, id: number) {
  await changeAudited(tx, actor, {
    table: duplicatePairs,
    id,
    where: and(eq(duplicatePairs.id, id), isNull(duplicatePairs.notSameAt)),
    notFound: M.notFound,
    action: 'duplicate_pair.not_same_person',
    snapshot: (row) => ({
      candidates: [row.candidateA, row.candidateB],
      same_photo: row.samePhoto,
      same_identity: row.sameIdentity,
      not_same_person: row.notSameAt !== null,
    }),
    set: () => ({ notSameAt: sql`now()`, notSameBy: actor.userId }),
  });
}
