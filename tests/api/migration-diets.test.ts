import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/secrets';
import type { DatabaseHandle } from '../../server/db/client';
import { openMigrationDatabase, type MigrationDatabase } from './migrations';
import { seedAccounts } from '../../server/demo/accounts';
import { seedCourseHeaders } from '../../server/demo/courseHeaders';

/**
 * The migration to diets (0006) on a database holding what the portal held before it: free-text resit
 * and offence exams, and candidates' single reg_status. Nothing is lost: each normalised exam text
 * becomes one diet, two listed entries of a candidate for one exam become one with both's papers, and
 * the registrations become a diet's.
 */

let database: MigrationDatabase;
let handle: DatabaseHandle;
const rows = <T>(query: Parameters<MigrationDatabase['rows']>[0]) => database.rows<T>(query);

beforeAll(async () => {
  database = await openMigrationDatabase();
  handle = database.handle;
  await database.migrateBefore('0006_diets');
  // The accounts as the seed writes them today: its insert names every column the schema has now, so
  // the columns later migrations add (0019: invitations) stand in for it and go again after.
  await handle.db.execute(
    sql`alter table users add column invited_at timestamptz, add column joined_at timestamptz`,
  );
  const accounts = await seedAccounts(handle.db, await hashPassword('migration-test-password'));
  await handle.db.execute(sql`alter table users drop column invited_at, drop column joined_at`);
  await seedCourseHeaders(handle.db);
  const school = accounts.schools[0].id;
  const header = sql`(select id from course_headers where code = 'A1')`;
  const candidate = (n: number, regStatus: string) => sql`
    insert into candidates (candidate_index, training_school_id, course_header_id, year, first_name, last_name,
      date_of_birth, candidate_category, marital_status, gender, nationality, reg_status, created_by)
    values (${`WHB/26/A1/00000${n}`}, ${school}, ${header}, 2026, ${`First${n}`}, ${`Last${n}`}, '1999-01-01',
      'fresh', 'S', 'female', 'NG', ${regStatus}, ${accounts.adminId})`;
  await handle.db.execute(candidate(1, 'registered'));
  await handle.db.execute(candidate(2, 'unregistered'));
  await handle.db.execute(candidate(3, 'registered'));
  const ids = await rows<{ id: number }>(sql`select id from candidates order by id`);
  const resit = (id: number, exam: string, papers: string[], removed = false) => sql`
    insert into resits (candidate_id, exam, papers, created_by, removed_at)
    values (${id}, ${exam}, ${JSON.stringify(papers)}::jsonb, ${accounts.adminId}, ${removed ? sql`now()` : null})`;
  await handle.db.execute(resit(ids[0].id, 'May 2027 Professional Examination', ['Practical']));
  await handle.db.execute(resit(ids[0].id, '  may 2027   professional examination ', ['Paper I', 'Oral']));
  await handle.db.execute(resit(ids[1].id, 'May 2027 Professional Examination', ['Paper II']));
  await handle.db.execute(resit(ids[1].id, 'November 2026', ['Oral'], true));
  await handle.db.execute(sql`
    insert into exam_offences (candidate_id, exam, offence, sanction, sanction_from, created_by)
    values (${ids[2].id}, 'NOVEMBER 2026', 'Impersonation', 'Barred', '2026-11-01', ${accounts.adminId})`);

  await database.migrateAll();
});

afterAll(async () => {
  await database?.close();
});

describe('the migration to diets', () => {
  it('makes one diet of each normalised exam text, named by its most used spelling', async () => {
    const diets = await rows<{ code: string; name: string; current: boolean }>(
      sql`select code, name, current from diets where code like 'EXAM-%' order by code`,
    );
    expect(diets).toEqual([
      { code: 'EXAM-001', name: 'May 2027 Professional Examination', current: false },
      { code: 'EXAM-002', name: expect.stringMatching(/^november 2026$/i), current: false },
    ]);
  });

  it("merges a candidate's two listed entries for one diet into the oldest, papers in the form's order", async () => {
    const resits = await rows<{ exam: string; papers: string[]; removed: boolean; diet: string }>(sql`
      select r.exam, r.papers, r.removed_at is not null as removed, d.code as diet
      from resits r join diets d on d.id = r.diet_id order by r.id`);
    expect(resits).toEqual([
      {
        exam: 'May 2027 Professional Examination',
        papers: ['Paper I', 'Practical', 'Oral'],
        removed: false,
        diet: 'EXAM-001',
      },
      {
        exam: '  may 2027   professional examination ',
        papers: ['Paper I', 'Oral'],
        removed: true,
        diet: 'EXAM-001',
      },
      { exam: 'May 2027 Professional Examination', papers: ['Paper II'], removed: false, diet: 'EXAM-001' },
      { exam: 'November 2026', papers: ['Oral'], removed: true, diet: 'EXAM-002' },
    ]);
  });

  it('keeps offences, their typed exam and their dates, against the matching diet', async () => {
    expect(
      await rows(sql`select o.exam, o.sanction_from::text as "from", d.code as diet
        from exam_offences o join diets d on d.id = o.diet_id`),
    ).toEqual([{ exam: 'NOVEMBER 2026', from: '2026-11-01', diet: 'EXAM-002' }]);
  });

  it('moves the registrations to a current diet made for them', async () => {
    const registered = await rows<{
      last_name: string;
      reg_status: string;
      code: string;
      current: boolean;
    }>(sql`
      select c.last_name, g.reg_status, d.code, d.current from registrations g
      join candidates c on c.id = g.candidate_id join diets d on d.id = g.diet_id order by c.id`);
    expect(registered).toEqual([
      { last_name: 'Last1', reg_status: 'registered', code: 'BEFORE-DIETS', current: true },
      { last_name: 'Last3', reg_status: 'registered', code: 'BEFORE-DIETS', current: true },
    ]);
    const columns = await rows(sql`select column_name from information_schema.columns
      where table_name = 'candidates' and column_name = 'reg_status'`);
    expect(columns).toEqual([]);
  });
});
