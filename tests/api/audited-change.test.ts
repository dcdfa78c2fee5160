import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit, changeAudited, type Actor } from '../../server/audit';
import { auditLog, courseHeaders, trainingSchools, users } from '../../server/db/schema';
import { NotFound, Refused } from '../../server/errors';
import { schoolIdOf, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/** The one audited change (server/audit.ts), on the real database: lock, compare, update, audit. */

let t: TestPortal;
let actor: Actor;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal();
  actor = {
    userId: await userIdOf(t, 'admin@example.org'),
    impersonatorId: null,
    ip: '203.0.113.7',
    requestId: 'req-1',
  };
});
afterAll(() => t?.close());

const entriesFor = (action: string, id: number) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))))
    .orderBy(desc(auditLog.id));

const statusChange = (id: number, status: 'active' | 'suspended') => ({
  table: trainingSchools,
  id,
  notFound: 'There is no such school.',
  action: 'school.status_changed' as const,
  snapshot: (row: typeof trainingSchools.$inferSelect) => ({ status: row.status }),
  set: () => ({ status }),
});

describe('changeAudited', () => {
  it('changes the row and writes one entry with before, after, the actor and the entity of the catalogue', async () => {
    const id = await schoolIdOf(t, 'CHT-CA');
    const [was] = await db().select().from(trainingSchools).where(eq(trainingSchools.id, id));
    const outcome = await db().transaction((tx) => changeAudited(tx, actor, statusChange(id, 'suspended')));
    expect(outcome.changed).toBe(true);
    expect(outcome.row.status).toBe('suspended');
    expect(outcome.row.updatedAt.getTime()).toBeGreaterThanOrEqual(was.updatedAt.getTime());
    const entries = await entriesFor('school.status_changed', id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      entity: 'training_school',
      actorId: actor.userId,
      impersonatorId: null,
      ip: '203.0.113.7',
      requestId: 'req-1',
      before: { status: 'active' },
      after: { status: 'suspended' },
    });
    await db().transaction((tx) => changeAudited(tx, actor, statusChange(id, 'active')));
    expect(await entriesFor('school.status_changed', id)).toHaveLength(2);
  });

  it('writes nothing, neither the row nor an entry, when nothing would change', async () => {
    const id = await schoolIdOf(t, 'SHT-IB');
    const [was] = await db().select().from(trainingSchools).where(eq(trainingSchools.id, id));
    const outcome = await db().transaction((tx) => changeAudited(tx, actor, statusChange(id, 'active')));
    expect(outcome).toEqual({ row: was, changed: false });
    const [now] = await db().select().from(trainingSchools).where(eq(trainingSchools.id, id));
    expect(now.updatedAt).toEqual(was.updatedAt);
    expect(await entriesFor('school.status_changed', id)).toHaveLength(0);
  });

  it('writes nothing when the change is refused, and the refusal goes on to the caller', async () => {
    const id = await schoolIdOf(t, 'SHT-IB');
    const refused = db().transaction((tx) =>
      changeAudited(tx, actor, {
        ...statusChange(id, 'suspended'),
        set: () => {
          throw new Refused(403, 'Not now.');
        },
      }),
    );
    await expect(refused).rejects.toEqual(new Refused(403, 'Not now.'));
    const [row] = await db().select().from(trainingSchools).where(eq(trainingSchools.id, id));
    expect(row.status).toBe('active');
    expect(await entriesFor('school.status_changed', id)).toHaveLength(0);
  });

  it('is NotFound with the given sentence for no row, or a row outside `where`', async () => {
    await expect(
      db().transaction((tx) => changeAudited(tx, actor, statusChange(999_999, 'active'))),
    ).rejects.toEqual(new NotFound('There is no such school.'));
    const adminId = await userIdOf(t, 'admin@example.org');
    const onlySchoolAdmins = db().transaction((tx) =>
      changeAudited(tx, actor, {
        table: users,
        id: adminId,
        where: eq(users.role, 'school_admin'),
        notFound: 'No such school admin.',
        action: 'user.deactivated',
        snapshot: (row) => ({ active: row.active }),
        set: () => ({ active: false }),
      }),
    );
    await expect(onlySchoolAdmins).rejects.toEqual(new NotFound('No such school admin.'));
    const [admin] = await db().select().from(users).where(eq(users.id, adminId));
    expect(admin.active).toBe(true);
  });

  it('adds what `then` answers to the entry’s after, and a failure there undoes the whole change', async () => {
    const [header] = await db().select().from(courseHeaders).where(eq(courseHeaders.code, 'A2'));
    const change = {
      table: courseHeaders,
      id: header.id,
      notFound: 'No such course header.',
      action: 'course_header.updated' as const,
      snapshot: (row: typeof courseHeaders.$inferSelect) => ({ code: row.code, title: row.title }),
      set: () => ({ title: 'Renamed' }),
    };
    const failing = db().transaction((tx) =>
      changeAudited(tx, actor, {
        ...change,
        then: async () => {
          throw new Error('the rest of the change failed');
        },
      }),
    );
    await expect(failing).rejects.toThrow('the rest of the change failed');
    const [kept] = await db().select().from(courseHeaders).where(eq(courseHeaders.id, header.id));
    expect(kept.title).toBe(header.title);
    expect(await entriesFor('course_header.updated', header.id)).toHaveLength(0);

    await db().transaction((tx) =>
      changeAudited(tx, actor, { ...change, then: async () => ({ note: 'more' }) }),
    );
    const [entry] = await entriesFor('course_header.updated', header.id);
    expect(entry.before).toEqual({ code: 'A2', title: header.title });
    expect(entry.after).toEqual({ code: 'A2', title: 'Renamed', note: 'more' });
  });

  it('`always` writes the entry of a form saved as it was', async () => {
    const id = await userIdOf(t, 'school1@example.org');
    await db().transaction((tx) =>
      changeAudited(tx, actor, {
        table: users,
        id,
        notFound: 'No such user.',
        action: 'user.profile_updated',
        always: true,
        snapshot: (row) => ({ name: row.name }),
        set: (row) => ({ name: row.name }),
      }),
    );
    const [entry] = await entriesFor('user.profile_updated', id);
    expect(entry.before).toEqual(entry.after);
  });
});

describe('the audit catalogue', () => {
  it('takes only the catalogue’s actions, and files each under its entity', async () => {
    await audit(db(), actor, { action: 'notification.all_marked_read', after: { count: 0 } });
    // @ts-expect-error -- an action that is not in contract/audit.ts does not compile
    const misspelt = { action: 'school.renamed' } satisfies Parameters<typeof audit>[2];
    expect(misspelt.action).toBe('school.renamed');
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'notification.all_marked_read'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry.entity).toBe('notification');
  });
});
