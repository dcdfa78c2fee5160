import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CHAIN_MESSAGES } from '../../contract/auditChain';
import { AUDIT_CHAIN_ENDPOINTS as E } from '../../contract/auditChain.endpoints';
import { audit, type Actor } from '../../server/audit';
import { GENESIS } from '../../server/auditChain';
import { userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The audit log is append-only and hash-chained (server/auditChain.ts, migration 0022): the database
 * refuses changes to it, and the check finds an entry edited, deleted or inserted behind the portal's
 * back, and a log cut short or extended. The tampering is done as a superuser would, with the triggers
 * off for one transaction (session_replication_role = replica), and undone after each check.
 */

let t: TestPortal;
let admin = '';
let school = '';
let actor: Actor;
const db = () => t.portal.database.db;
const rows = async <T>(query: SQL) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

/** Runs statements with every ordinary trigger off, in one transaction, as a superuser may. */
const behindThePortalsBack = (...statements: SQL[]) =>
  db().transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    for (const statement of statements) await tx.execute(statement);
  });

const verify = async (json: object = {}) => {
  const response = await t.request('POST', E.verify.path, { token: admin, json });
  expect(response.status).toBe(200);
  return response.body.data as {
    ok: boolean;
    checked: number;
    message: string;
    problem: { kind: string; entry_id: number | null; message: string } | null;
    head: { entries: number; id: number; hash: string; at: string };
  };
};

/** An entry in the middle of the chain (by place), with its neighbours' ids. */
async function middle() {
  const all = await rows<{ id: string; seq: string }>(
    sql`select id::text, seq::text from audit_log order by audit_log.seq`,
  );
  const at = Math.floor(all.length / 2);
  return { id: Number(all[at].id), before: Number(all[at - 1].id), after: Number(all[at + 1].id) };
}

/** Keeps a copy of entries (all columns as stored), to put them back as they were. */
const save = (where: SQL) =>
  behindThePortalsBack(
    sql`drop table if exists audit_saved`,
    sql`create table audit_saved as select * from audit_log where ${where}`,
  );
const putBack = sql`insert into audit_log select * from audit_saved`;

beforeAll(async () => {
  t = await startTestPortal();
  admin = await t.signIn('admin@example.org');
  school = await t.signIn('school1@example.org');
  actor = {
    userId: await userIdOf(t, 'admin@example.org'),
    impersonatorId: null,
    ip: '203.0.113.9',
    requestId: 'r-1',
  };
  // Entries whose text is hard to write the same twice: the check computes each hash again in Node
  // from the stored fields, so any difference from the database's canonical text shows here.
  const awkward = [
    { s: 'quote " backslash \\ slash / tab \t newline \n', n: 1 },
    { s: 'control \u0001\u001f delete \u007f line sep \u2028 para \u2029', n: -0.5 },
    { s: 'é ß 中文 😀 \u{10FFFF}', n: 1e21 },
    { s: '', n: 2 ** 64 },
    { nested: { b: [1, 2.5, null, true, { z: 'z', a: 'a', '': '' }], a: 1.0e-7 } },
  ];
  for (const [i, after] of awkward.entries()) {
    await audit(db(), actor, {
      action: 'user.profile_updated',
      entityId: `x"${i}\n`,
      before: i % 2 ? null : after,
      after,
    });
  }
});
afterAll(() => t?.close());

describe('the chain as written', () => {
  it('is whole: every entry chained to the one before, the head at the last', async () => {
    const result = await verify();
    expect(result.message).toMatch(/^The log is whole: \d+ entries checked/);
    expect(result).toMatchObject({ ok: true, problem: null });
    const [count] = await rows<{ n: number; first: string }>(
      sql`select count(*)::int as n, (select prev_hash from audit_log where seq = 1) as first from audit_log`,
    );
    expect(result.checked).toBe(count.n);
    expect(result.head.entries).toBe(count.n);
    expect(count.first).toBe(GENESIS);
    const [last] = await rows<{ id: string; hash: string }>(
      sql`select id::text, hash from audit_log order by audit_log.seq desc limit 1`,
    );
    expect(result.head).toMatchObject({ id: Number(last.id), hash: last.hash });
    expect(result.head.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it("holds any text and JSON an entry may carry (Node computes the database's hashes)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), fc.jsonValue(), async (text, json) => {
        // PostgreSQL text has no NUL; JSON's -0 is stored as 0 and written back as 0 by both.
        const clean = text.replaceAll('\u0000', '');
        await audit(
          db(),
          { ...actor, ip: clean },
          { action: 'user.profile_updated', entityId: clean, after: json },
        );
      }),
      { numRuns: 40 },
    );
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('chains many entries of one transaction, and forgets those of a savepoint rolled back', async () => {
    await db().transaction(async (tx) => {
      await tx.execute(
        sql`insert into audit_log (action, entity) select 'auth.signed_in', 'user' from generate_series(1, 3000)`,
      );
      await tx
        .transaction(async (savepoint) => {
          await audit(savepoint, actor, { action: 'auth.signed_out', entityId: 'rolled back' });
          throw new Error('rolled back');
        })
        .catch(() => {});
      await audit(tx, actor, { action: 'auth.signed_out', entityId: 'kept' });
    });
    const result = await verify();
    expect(result).toMatchObject({ ok: true });
    const [last] = await rows<{ id: string; entity_id: string }>(
      sql`select id::text, entity_id from audit_log order by audit_log.seq desc limit 1`,
    );
    expect(last.entity_id).toBe('kept');
    expect(result.head.id).toBe(Number(last.id));
    expect(await rows(sql`select 1 from audit_log where entity_id = 'rolled back'`)).toEqual([]);
  });

  it('shows the head to a board admin, and to nobody else', async () => {
    const head = await t.request('GET', E.head.path, { token: admin });
    expect(head.status).toBe(200);
    const [last] = await rows<{ id: string; hash: string; n: number }>(
      sql`select id::text, hash, (select count(*)::int from audit_log) as n from audit_log order by audit_log.seq desc limit 1`,
    );
    expect(head.body.data).toMatchObject({ entries: last.n, id: Number(last.id), hash: last.hash });
    expect((await t.request('GET', E.head.path, { token: school })).status).toBe(403);
    expect((await t.request('POST', E.verify.path, { token: school, json: {} })).status).toBe(403);
    expect((await t.request('GET', E.head.path)).status).toBe(401);
  });
});

describe('the database', () => {
  it("refuses to update, delete or truncate an entry, even from the portal's own connection", async () => {
    const { id } = await middle();
    for (const statement of [
      sql`update audit_log set action = 'auth.signed_in' where id = ${id}`,
      sql`delete from audit_log where id = ${id}`,
      sql`truncate audit_log`,
    ]) {
      await expect(db().execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({
          message: expect.stringMatching(
            /^The audit log is append-only: (UPDATE|DELETE|TRUNCATE) on audit_log is refused\.$/,
          ),
        }),
      });
    }
    expect(await verify()).toMatchObject({ ok: true });
  });

  it("refuses to move the chain's head except by a new entry", async () => {
    for (const statement of [
      sql`update audit_chain_head set last_seq = last_seq - 1`,
      sql`delete from audit_chain_head`,
      sql`truncate audit_chain_head`,
    ]) {
      await expect(db().execute(statement)).rejects.toMatchObject({
        cause: expect.objectContaining({
          message: expect.stringMatching(/^The audit chain's head changes only with a new entry/),
        }),
      });
    }
  });

  it('chains an entry whatever place and hash its insert gives', async () => {
    await db().execute(
      sql`insert into audit_log (action, entity, seq, prev_hash, hash) values ('auth.signed_in', 'user', 1, ${GENESIS}, ${'f'.repeat(64)})`,
    );
    const [entry] = await rows<{ seq: string; hash: string }>(
      sql`select seq::text, hash from audit_log order by audit_log.seq desc limit 1`,
    );
    expect(entry.hash).not.toBe('f'.repeat(64));
    expect(await verify()).toMatchObject({
      ok: true,
      head: { entries: Number(entry.seq), hash: entry.hash },
    });
  });
});

describe("the check finds what was done behind the portal's back", () => {
  it('an edited entry', async () => {
    const { id } = await middle();
    await save(sql`id = ${id}`);
    await behindThePortalsBack(sql`update audit_log set after = '{"name": "Someone else"}' where id = ${id}`);
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.problem).toMatchObject({ kind: 'edited', entry_id: id });
    expect(result.message).toMatch(
      new RegExp(
        `^The log was edited: entry ${id} \\(number \\d+ in the chain\\) no longer matches its hash`,
      ),
    );
    await behindThePortalsBack(
      sql`update audit_log a set after = s.after from audit_saved s where a.id = s.id`,
    );
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('an edited time, actor or action', async () => {
    const { id } = await middle();
    await save(sql`id = ${id}`);
    for (const change of [
      sql`update audit_log set at = at + interval '1 microsecond' where id = ${id}`,
      sql`update audit_log set actor_id = case when actor_id is null then (select min(id) from users) end where id = ${id}`,
      sql`update audit_log set action = case when action = 'auth.signed_out' then 'auth.signed_in' else 'auth.signed_out' end where id = ${id}`,
    ]) {
      await behindThePortalsBack(change);
      expect((await verify()).problem).toMatchObject({ kind: 'edited', entry_id: id });
      await behindThePortalsBack(sql`delete from audit_log where id = ${id}`, putBack);
    }
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('a deleted entry', async () => {
    const { id, after } = await middle();
    await save(sql`id = ${id}`);
    await behindThePortalsBack(sql`delete from audit_log where id = ${id}`);
    const result = await verify();
    expect(result.problem).toMatchObject({ kind: 'deleted', entry_id: after });
    expect(result.message).toMatch(
      new RegExp(
        `^Entries were deleted: entry ${after} .* is chained to an entry that is no longer in the log`,
      ),
    );
    await behindThePortalsBack(putBack);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('a deleted entry whose successor was re-chained to the one before', async () => {
    // The next entry's prev_hash rewritten to skip the gap: its own hash then no longer matches.
    const { id, before, after } = await middle();
    await save(sql`id in (${id}, ${after})`);
    await behindThePortalsBack(
      sql`delete from audit_log where id = ${id}`,
      sql`update audit_log set prev_hash = (select hash from audit_log where id = ${before}) where id = ${after}`,
    );
    expect((await verify()).problem).toMatchObject({ kind: 'edited', entry_id: after });
    await behindThePortalsBack(sql`delete from audit_log where id = ${after}`, putBack);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('an entry inserted without a hash, or with a forged one', async () => {
    await behindThePortalsBack(
      sql`insert into audit_log (id, action, entity) values (900000001, 'auth.signed_in', 'user')`,
    );
    let result = await verify();
    expect(result.problem).toMatchObject({ kind: 'inserted', entry_id: 900000001 });
    expect(result.message).toBe(
      "An entry was inserted behind the portal's back: entry 900000001 (number 0 in the chain) has no chain hash.",
    );
    // The forger computes a good hash (with the database's own function) and chains it to the start.
    await t.portal.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`delete from audit_log where id = 900000001`);
      await tx.execute(sql`
        insert into audit_log (id, action, entity, seq, prev_hash, hash)
        values (900000002, 'auth.signed_in', 'user', 0, ${GENESIS}, '')`);
      await tx.execute(sql`
        update audit_log a set hash = audit_entry_hash(a.prev_hash, a) where id = 900000002`);
    });
    result = await verify();
    expect(result.problem).toMatchObject({ kind: 'inserted', entry_id: 900000002 });
    await behindThePortalsBack(sql`delete from audit_log where id = 900000002`);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('an entry inserted between two, chained to the one before, with the unique place dropped', async () => {
    const { before, after } = await middle();
    await behindThePortalsBack(
      sql`drop index audit_log_seq_idx`,
      sql`
        insert into audit_log (id, at, action, entity, seq, prev_hash, hash)
        select 900000003, b.at, 'user.profile_updated', 'user', (select seq from audit_log where id = ${after}), b.hash, ''
        from audit_log b where b.id = ${before}`,
      sql`update audit_log a set hash = audit_entry_hash(a.prev_hash, a) where id = 900000003`,
    );
    const result = await verify();
    expect(result.ok).toBe(false);
    expect(result.problem?.kind).toBe('inserted');
    expect([900000003, after]).toContain(result.problem?.entry_id);
    await behindThePortalsBack(
      sql`delete from audit_log where id = 900000003`,
      sql`create unique index audit_log_seq_idx on audit_log using btree (seq)`,
    );
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('a log cut short', async () => {
    const [last] = await rows<{ id: string; seq: string }>(
      sql`select id::text, seq::text from audit_log order by audit_log.seq desc limit 1`,
    );
    await save(sql`seq >= ${Number(last.seq) - 1}`);
    await behindThePortalsBack(sql`delete from audit_log where seq >= ${Number(last.seq) - 1}`);
    const result = await verify();
    expect(result.problem).toMatchObject({ kind: 'cut' });
    expect(result.message).toMatch(
      new RegExp(
        `^The log was cut: it ends at entry \\d+ \\(number ${Number(last.seq) - 2} in the chain\\), but the chain's head says it has ${last.seq} entries, the last entry ${last.id}\\.$`,
      ),
    );
    await behindThePortalsBack(putBack);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('a log extended past its head, even with a well-chained entry', async () => {
    await behindThePortalsBack(
      sql`
        insert into audit_log (id, action, entity, seq, prev_hash, hash)
        select 900000004, 'auth.signed_in', 'user', h.last_seq + 1, h.last_hash, '' from audit_chain_head h`,
      sql`update audit_log a set hash = audit_entry_hash(a.prev_hash, a) where id = 900000004`,
    );
    const result = await verify();
    expect(result.problem).toMatchObject({ kind: 'extended', entry_id: 900000004 });
    expect(result.message).toMatch(
      /^The log was extended behind the portal's back: 1 entry comes after the chain's head/,
    );
    await behindThePortalsBack(sql`delete from audit_log where id = 900000004`);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('a log written again from the start: its hashes no longer match a printed head', async () => {
    const printed = (await verify()).head;
    const ok = await verify({ printed_id: printed.id, printed_hash: printed.hash.toUpperCase() });
    expect(ok).toMatchObject({ ok: true });
    const forged = await verify({ printed_id: printed.id, printed_hash: 'a'.repeat(64) });
    expect(forged.problem).toMatchObject({ kind: 'edited', entry_id: printed.id });
    expect(forged.message).toMatch(/^The log is not the one printed/);
    const gone = await verify({ printed_id: 999999999, printed_hash: 'a'.repeat(64) });
    expect(gone.problem).toMatchObject({ kind: 'cut' });
    expect(gone.message).toBe(
      'The log is not the one printed: entry 999999999 of the printed head is not in the chain.',
    );
  });

  it('refuses a printed head that is not one, in words', async () => {
    for (const [json, field, message] of [
      [{ printed_id: 3 }, 'printed_hash', AUDIT_CHAIN_MESSAGES.printedHashRequired],
      [{ printed_hash: 'a'.repeat(64) }, 'printed_id', AUDIT_CHAIN_MESSAGES.printedIdRequired],
      [{ printed_id: 3, printed_hash: 'xyz' }, 'printed_hash', AUDIT_CHAIN_MESSAGES.printedHashInvalid],
      [
        { printed_id: 1.5, printed_hash: 'a'.repeat(64) },
        'printed_id',
        AUDIT_CHAIN_MESSAGES.printedIdInvalid,
      ],
      [
        { printed_id: 'one', printed_hash: 'a'.repeat(64) },
        'printed_id',
        AUDIT_CHAIN_MESSAGES.printedIdInvalid,
      ],
    ] as const) {
      const response = await t.request('POST', E.verify.path, { token: admin, json });
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual({ [field]: [message] });
    }
  });
});

describe('the living demo', () => {
  it('seeds a log whose chain is whole, ending at the head', async () => {
    const demo = await startTestPortal({}, { livingDemo: true });
    try {
      const token = await demo.signIn('admin@example.org');
      const response = await demo.request('POST', E.verify.path, { token, json: {} });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ ok: true, problem: null });
      expect(response.body.data.checked).toBe(response.body.data.head.entries);
      expect(response.body.data.checked).toBeGreaterThan(0);
    } finally {
      await demo.close();
    }
  });
});
