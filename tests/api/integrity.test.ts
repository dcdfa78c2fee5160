import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { INTEGRITY_MESSAGES as M, type DuplicatePair, type DuplicateReport } from '../../contract/integrity';
import { INTEGRITY_ENDPOINTS as E } from '../../contract/integrity.endpoints';
import { fillPath } from '../../contract/endpoint';
import { candidates, files } from '../../server/db/schema';
import { checkPending, scanAll } from '../../server/integrity/finder';
import { identityKey } from '../../server/integrity/identity';
import { candidateForm, demoSignIns, lastAudit, until } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The integrity reports (issue 27) over HTTP, on the living demo: the demo's likely duplicate and its
 * re-indexed offender are reported and its 320 look-alike portraits are not; a photo re-used after
 * re-encoding and resizing (made here with sharp) and the same name and date of birth at another school
 * are found by the job that indexing wakes; 'not the same person' is audited and keeps the pair out, a
 * full run included; school admins are refused; hostile input is a 422. PGlite, and PostgreSQL with
 * DATABASE_URL.
 */

let t: TestPortal;
let tokens: { admin: string; school1: string };
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal(
    {},
    { livingDemo: true, jobs: { pollingIntervalSeconds: 1, schedule: false, supervise: false } },
  );
  tokens = await demoSignIns(t);
}, 120_000);
afterAll(() => t?.close());

const report = async (page = 1): Promise<DuplicateReport> => {
  const response = await t.request('GET', `${E.duplicates.path}?page=${page}`, { token: tokens.admin });
  expect(response.status).toBe(200);
  return response.body.data as DuplicateReport;
};
const pairOf = (r: DuplicateReport, a: number, b: number) =>
  r.pairs.find((p) => p.candidates.some((c) => c.id === a) && p.candidates.some((c) => c.id === b));

async function photoBytesOf(id: number): Promise<Uint8Array> {
  const stored = await db()
    .select({ key: files.key, field: files.field })
    .from(files)
    .where(eq(files.candidateId, id));
  const key = stored.find((f) => f.field === 'photo')!.key;
  return (await t.portal.storage.get(key))!.bytes;
}

async function index(fields: Record<string, string>, photo: Uint8Array, type = 'image/jpeg') {
  const response = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
    token: tokens.admin,
    form: candidateForm(fields, {
      photo: { bytes: photo, type, name: type === 'image/png' ? 'p.png' : 'p.jpg' },
    }),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id as number;
}

/** A photo nobody else has: noise, so no likeness to anyone. */
const ownPhoto = async (seed: number) => {
  const pixels = Buffer.alloc(60 * 75 * 3);
  let s = seed;
  for (let i = 0; i < pixels.length; i++) pixels[i] = (s = (s * 1103515245 + 12345) % 2147483648) & 255;
  return new Uint8Array(
    await sharp(pixels, { raw: { width: 60, height: 75, channels: 3 } })
      .png()
      .toBuffer(),
  );
};

describe('the demo', () => {
  it('reports its likely duplicate and its re-indexed offender, and none of its look-alike portraits', async () => {
    const r = await report();
    expect(r.total).toBe(2);
    const [offender, duplicate] = [r.pairs.find((p) => p.offender)!, r.pairs.find((p) => !p.offender)!];
    // The same person at two schools in two years: the names swapped, the photo re-encoded.
    expect(duplicate).toMatchObject({ same_photo: true, same_identity: true });
    const [a, b] = duplicate.candidates;
    expect(a.school.code).not.toBe(b.school.code);
    expect(a.year).not.toBe(b.year);
    expect(identityKey(a.first_name, a.last_name, a.date_of_birth)).toBe(
      identityKey(b.first_name, b.last_name, b.date_of_birth),
    );
    expect(a.first_name).toBe(b.last_name);
    expect(duplicate.photo_likeness).toBeGreaterThan(0.98);
    expect(a.photo && b.photo).toBeTruthy();
    // The offender under another name: the same photo only.
    expect(offender).toMatchObject({ same_photo: true, same_identity: false, offender: true });
    expect(offender.candidates.filter((c) => c.offender)).toHaveLength(1);
  });

  it('finds the same two in a full run over every candidate, and records it', async () => {
    const before = (await report()).pairs.map((p) => p.id).sort();
    const run = await scanAll(db());
    expect(run.candidates).toBeGreaterThanOrEqual(320);
    const after = await report();
    expect(after.pairs.map((p) => p.id).sort()).toEqual(before);
    expect(after.last_scan).toMatchObject({ candidates: run.candidates, pairs: 2 });
  });
});

describe('on each new indexing', () => {
  it('finds a re-used photo that was re-encoded and resized, under another name and school', async () => {
    const [someone] = await db()
      .select({ id: candidates.id })
      .from(candidates)
      .orderBy(candidates.id)
      .limit(1);
    const original = await photoBytesOf(someone.id);
    const reused = new Uint8Array(await sharp(original).resize(270).jpeg({ quality: 55 }).toBuffer());
    const id = await index(
      { first_name: 'Zainab', last_name: 'Abdulrahman', date_of_birth: '1999-02-03', school_code: 'CHT-CA' },
      reused,
    );
    const r = await until(report, (value) => !!pairOf(value, someone.id, id));
    const pair = pairOf(r, someone.id, id)!;
    expect(pair).toMatchObject({ same_photo: true, same_identity: false });
    expect(r.waiting).toBe(0);
  });

  it('finds the same name and date of birth at another school, names swapped, case and accents aside', async () => {
    const [someone] = await db()
      .select({
        id: candidates.id,
        first: candidates.first_name,
        last: candidates.last_name,
        dob: candidates.date_of_birth,
      })
      .from(candidates)
      .limit(1);
    const accented = (name: string) => name.toUpperCase().replace('A', 'Á').replace('E', 'É');
    const id = await index(
      {
        first_name: accented(someone.last),
        last_name: accented(someone.first),
        date_of_birth: someone.dob,
        school_code: 'CHS-IL',
      },
      await ownPhoto(7),
      'image/png',
    );
    const r = await until(report, (value) => !!pairOf(value, someone.id, id));
    expect(pairOf(r, someone.id, id)).toMatchObject({ same_photo: false, same_identity: true });
  });

  it('does not pair a new candidate with a photo of their own and a name of their own', async () => {
    const before = (await report()).total;
    const id = await index(
      { first_name: 'Oluwaseun', last_name: 'Nwachukwu', date_of_birth: '1998-11-30', school_code: 'SHT-KN' },
      await ownPhoto(99),
      'image/png',
    );
    await until(report, (value) => value.waiting === 0);
    const r = await report();
    expect(r.total).toBe(before);
    expect(r.pairs.some((p) => p.candidates.some((c) => c.id === id))).toBe(false);
  });
});

describe('run twice at once', () => {
  it('writes the same pairs whether checks and a full run run one by one or at once (skip locked, one writer)', async () => {
    const ids = (await db().select({ id: candidates.id }).from(candidates).orderBy(candidates.id)).map(
      (c) => c.id,
    );
    const queue = () =>
      db().execute(
        sql`insert into integrity_pending (candidate_id) select unnest(${`{${ids.slice(0, 60).join(',')}}`}::int[]) on conflict do nothing`,
      );
    const pairs = async () =>
      (
        (await db().execute(
          sql`select candidate_a, candidate_b, same_photo, same_identity from duplicate_pairs where not_same_at is null order by 1, 2`,
        )) as unknown as { rows: unknown[] }
      ).rows;
    await queue();
    await checkPending(db());
    const once = await pairs();
    await queue();
    // As two API processes' workers and the nightly run would, at once (on PostgreSQL, each its own connection).
    await Promise.all([checkPending(db(), 7), checkPending(db(), 7), scanAll(db()), checkPending(db(), 7)]);
    expect(await pairs()).toEqual(once);
    expect((await report()).waiting).toBe(0);
  });
});

describe('not the same person', () => {
  it('is audited, and the pair stays out of the report, a full run included', async () => {
    const pair: DuplicatePair = (await report()).pairs.find((p) => !p.offender)!;
    const response = await t.request('POST', fillPath(E.notSame.path, { id: pair.id }), {
      token: tokens.admin,
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(M.notSame);
    const entry = await lastAudit(t, 'duplicate_pair.not_same_person', pair.id);
    expect(entry).toBeTruthy();
    expect(entry.after).toMatchObject({ not_same_person: true });
    expect(entry.before).toMatchObject({ not_same_person: false });
    expect((await report()).pairs.some((p) => p.id === pair.id)).toBe(false);
    await scanAll(db());
    expect((await report()).pairs.some((p) => p.id === pair.id)).toBe(false);
    // Marked once: again is a 404 (no such pair in the report).
    const again = await t.request('POST', fillPath(E.notSame.path, { id: pair.id }), { token: tokens.admin });
    expect(again.status).toBe(404);
  });
});

describe('access and hostile input', () => {
  it('refuses school admins and strangers', async () => {
    for (const [method, path] of [
      ['GET', E.duplicates.path],
      ['POST', fillPath(E.notSame.path, { id: 1 })],
      ['POST', E.scan.path],
    ] as const) {
      expect((await t.request(method, path, { token: tokens.school1 })).status).toBe(403);
      expect((await t.request(method, path)).status).toBe(401);
    }
  });

  it('answers a bad page with a 422 and an unknown pair with a 404', async () => {
    for (const page of ['abc', '0', '1.5', '%00', '99999999999']) {
      const response = await t.request('GET', `${E.duplicates.path}?page=${page}`, { token: tokens.admin });
      expect(response.status, page).toBe(422);
    }
    for (const id of ['999999', 'abc']) {
      const response = await t.request('POST', E.notSame.path.replace(':id', id), { token: tokens.admin });
      expect(response.status, id).toBe(404);
    }
  });

  it('queues a full run for the board', async () => {
    const response = await t.request('POST', E.scan.path, { token: tokens.admin });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(M.scanQueued);
  });
});
