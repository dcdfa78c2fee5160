import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_CHAIN_ENDPOINTS as E } from '../../contract/auditChain.endpoints';
import { AUTH_ENDPOINTS } from '../../contract/auth.endpoints';
import { audit, systemActor } from '../../server/audit';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { DEMO_PASSWORD, seedSignIns } from '../../server/demo';
import { createPostgresDatabase, readMailedCode } from './portal';
import { baseEnv, spawnPortal, type PortalProcess } from './processes';

/**
 * The chain across processes: two portals on one PostgreSQL database writing audit entries at once keep
 * one chain (the head's row lock, migration 0022), and `npm run audit:verify` checks a database the way
 * the other scripts open it: DATABASE_URL, a PGlite folder at rest, and the folder of a running portal
 * (asked through its control listener).
 */

const processes: PortalProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const portal of processes) await portal.kill('SIGTERM');
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** `npm run audit:verify` as a user runs it: its exit code and what it printed. */
function runVerify(env: Record<string, string | undefined>, args: string[] = []) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'server/auditVerify.ts', ...args],
      { env: env as NodeJS.ProcessEnv },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
    );
  });
}

async function signIn(url: string, dataDir: string, email: string) {
  const post = async (route: string, body: object) => {
    const response = await fetch(url + route, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { data: Record<string, string> };
  };
  const login = await post(AUTH_ENDPOINTS.login.path, { email, password: DEMO_PASSWORD });
  if (!login.data?.login_id) throw new Error(`login: ${JSON.stringify(login)}`);
  const confirm = await post(AUTH_ENDPOINTS.confirmCode.path, {
    login_id: login.data.login_id,
    code: readMailedCode(dataDir, email),
  });
  if (!confirm.data?.access_token) throw new Error(`confirm: ${JSON.stringify(confirm)}`);
  return confirm.data.access_token;
}

/** Tampering as a superuser may: the triggers off for one transaction. */
const behindThePortalsBack = (handle: DatabaseHandle, statement: ReturnType<typeof sql>) =>
  handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

describe.skipIf(!process.env.DATABASE_URL)('two portal processes on one PostgreSQL database', () => {
  it('keep one chain while both write audit entries at once', { timeout: 180_000 }, async () => {
    const database = await createPostgresDatabase(process.env.DATABASE_URL!);
    cleanups.push(database.drop);
    const handle = await openDatabase({ driver: 'postgres', url: database.url, poolSize: 2 });
    cleanups.push(() => handle.close());
    await handle.migrate();
    await seedSignIns(handle.db);

    const env = { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: database.url };
    // Started at once, as a deployment of two starts them (the job queue's set-up takes turns).
    const portals = await Promise.all(
      [0, 1].map(async (n) => {
        const dataDir = tempDir(`portal-chain-${n}-`);
        const portal = spawnPortal({ ...env, DATA_DIR: dataDir });
        processes.push(portal);
        return { url: await portal.listening(), dataDir };
      }),
    );
    // Two users a process, each a stream of profile saves, five at a time: every save is a
    // transaction that locks the user's row, then the chain's head, and writes one entry.
    const streams = [
      { portal: portals[0], email: 'admin@example.org', path: '/api/admin/user-profile-update' },
      {
        portal: portals[0],
        email: 'school1@example.org',
        path: '/api/training-school-admin/update-user-training-school-profile',
      },
      {
        portal: portals[1],
        email: 'school2@example.org',
        path: '/api/training-school-admin/update-user-training-school-profile',
      },
      { portal: portals[1], email: 'admin@example.org', path: '/api/admin/user-profile-update' },
    ];
    const tokens: string[] = [];
    for (const s of streams) tokens.push(await signIn(s.portal.url, s.portal.dataDir, s.email));
    const SAVES = 40;
    const statuses: number[] = [];
    await Promise.all(
      streams.flatMap((stream, i) =>
        Array.from({ length: 5 }, async (_, lane) => {
          for (let n = lane; n < SAVES; n += 5) {
            const response = await fetch(stream.portal.url + stream.path, {
              method: 'POST',
              headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name: `Stream ${i} save ${n}`, email: stream.email, phone_number: '' }),
            });
            await response.arrayBuffer();
            statuses.push(response.status);
          }
        }),
      ),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const [counts] = (
      (await handle.db.execute(sql`
        select count(*)::int as entries, max(seq)::int as last, count(distinct prev_hash)::int as links,
          (select count(*)::int from audit_log where action = 'user.profile_updated') as saves
        from audit_log`)) as unknown as {
        rows: { entries: number; last: number; links: number; saves: number }[];
      }
    ).rows;
    // One chain: places 1..n without a gap, and no two entries chained to the same one (a fork).
    expect(counts).toMatchObject({ saves: 4 * SAVES, last: counts.entries, links: counts.entries });
    const response = await fetch(portals[1].url + E.verify.path, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[3]}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const result = (await response.json()).data;
    expect(result).toMatchObject({ ok: true, checked: counts.entries, head: { entries: counts.entries } });

    // The script, on DATABASE_URL.
    const whole = await runVerify({ ...baseEnv(), DATABASE_URL: database.url });
    expect(whole.code).toBe(0);
    expect(whole.out).toMatch(new RegExp(`^The log is whole: ${counts.entries} entries checked`));
    expect(whole.out).toMatch(
      new RegExp(`Chain head: ${counts.entries} entries, last entry \\d+ at \\S+, hash [0-9a-f]{64}\\.`),
    );
    await behindThePortalsBack(handle, sql`update audit_log set entity_id = 'tampered' where seq = 3`);
    const edited = await runVerify({ ...baseEnv(), DATABASE_URL: database.url });
    expect(edited.code).toBe(1);
    expect(edited.err).toMatch(
      /^The log was edited: entry \d+ \(number 3 in the chain\) no longer matches its hash/,
    );
  });
});

describe('npm run audit:verify on the embedded database', () => {
  it("checks a folder at rest, and a running portal's through the portal", { timeout: 180_000 }, async () => {
    const dataDir = tempDir('portal-chain-pglite-');
    let handle = await openDatabase({ driver: 'pglite', dataDir, durable: false });
    await handle.migrate();
    await seedSignIns(handle.db);
    for (let i = 0; i < 20; i++)
      await audit(handle.db, systemActor(`r${i}`), { action: 'auth.signed_in', entityId: i });
    const [{ id: printedId, hash: printedHash }] = (
      (await handle.db.execute(sql`select id::int, hash from audit_log where seq = 10`)) as unknown as {
        rows: { id: number; hash: string }[];
      }
    ).rows;
    await handle.close();
    const env = { ...baseEnv(), DATA_DIR: dataDir };

    const atRest = await runVerify(env, ['--printed', `${printedId}:${printedHash}`]);
    expect(atRest).toMatchObject({ code: 0 });
    expect(atRest.out).toMatch(/^The log is whole: 20 entries checked/);

    const portal = spawnPortal({ ...env, PORT: '0', HOST: '127.0.0.1' });
    processes.push(portal);
    await portal.listening();
    const running = await runVerify(env);
    expect(running).toMatchObject({ code: 0 });
    expect(running.out).toMatch(/^The log is whole: \d+ entries checked/);
    const wrongPrint = await runVerify(env, ['--printed', `${printedId}:${'0'.repeat(64)}`]);
    expect(wrongPrint.code).toBe(1);
    expect(wrongPrint.err).toMatch(
      /^The log is not the one printed: entry \d+'s hash is [0-9a-f]{64}, the printed head says 0{64}/,
    );
    expect(await runVerify(env, ['--printed', 'nonsense'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^Give nothing, or a printed head as --printed ID:HASH/),
    });
    await portal.kill('SIGTERM');

    handle = await openDatabase({ driver: 'pglite', dataDir, durable: false });
    await behindThePortalsBack(handle, sql`delete from audit_log where seq = 5`);
    await handle.close();
    const deleted = await runVerify(env);
    expect(deleted.code).toBe(1);
    expect(deleted.err).toMatch(/^Entries were deleted: entry \d+ \(number 6 in the chain\)/);
  });
});
