import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/db/client';
import { openMigrationDatabase, type MigrationDatabase } from './migrations';

/**
 * The migration that files audit entries under a school (0021_audit_trail) on a log written before it:
 * an entry about a school is that school's, one about a school admin their school's, one a school admin
 * made about the board's own things (a broadcast read) the acting user's school, one a board admin made
 * about a diet nobody's; an entity id that is not a number is left alone, not a failed cast.
 */

let database: MigrationDatabase;
let handle: DatabaseHandle;
const rows = <T>(query: Parameters<MigrationDatabase['rows']>[0]) => database.rows<T>(query);

beforeAll(async () => {
  database = await openMigrationDatabase();
  handle = database.handle;
  await database.migrateBefore('0021_audit_trail');
  await handle.db.execute(
    sql`insert into training_schools (code, name, state) values ('MG-A', 'School A', 'Lagos'), ('MG-B', 'School B', 'Oyo')`,
  );
  await handle.db.execute(sql`insert into users (name, email, role, training_school_id, password_hash) values
    ('Board', 'board@example.org', 'admin', null, 'x'),
    ('Head B', 'headb@example.org', 'school_admin', (select id from training_schools where code = 'MG-B'), 'x')`);
  const user = (email: string) => sql`(select id from users where email = ${email})`;
  const entry = (action: string, entity: string, entityId: unknown, actor: string, id: string) => sql`
    insert into audit_log (actor_id, action, entity, entity_id, request_id)
    values (${user(actor)}, ${action}, ${entity}, ${entityId}, ${id})`;
  const schoolA = sql`(select id::text from training_schools where code = 'MG-A')`;
  await handle.db.execute(entry('school.updated', 'training_school', schoolA, 'board@example.org', 'school'));
  await handle.db.execute(
    entry(
      'user.created',
      'user',
      sql`(select id::text from users where email = 'headb@example.org')`,
      'board@example.org',
      'user',
    ),
  );
  await handle.db.execute(entry('broadcast.read', 'broadcast', '7', 'headb@example.org', 'actor'));
  await handle.db.execute(entry('diet.updated', 'diet', '1', 'board@example.org', 'board'));
  await handle.db.execute(
    entry('candidate.updated', 'candidate', 'not-a-number', 'board@example.org', 'text'),
  );
  await database.migrateAll();
});

afterAll(async () => {
  await database?.close();
});

it('files each entry written before under the school it is about', async () => {
  const filed = await rows<{ request_id: string; code: string | null }>(sql`
    select a.request_id, s.code from audit_log a left join training_schools s on s.id = a.school_id
    order by a.id`);
  expect(Object.fromEntries(filed.map((row) => [row.request_id, row.code]))).toEqual({
    school: 'MG-A',
    user: 'MG-B',
    actor: 'MG-B',
    board: null,
    text: null,
  });
});
