import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import { identityKey } from './identity';
import { bandOf, HASH_BANDS, HASH_DISTANCE, likeness, SAME_PHOTO_LIKENESS, THUMB_SIDE } from './photoHash';

const THUMB_SIZE = THUMB_SIDE * THUMB_SIDE;

/**
 * The duplicate finder (docs/decisions.md "Integrity reports"): pairs of candidates who may be one person,
 * by the same photo or the same name and date of birth, across schools and years. `scanAll` goes over
 * every candidate (the nightly job and the board's "Check everyone again"); `checkPending` checks the
 * candidates just indexed or changed against the rest (the job woken by indexing). Both write only
 * through `savePairs`, an upsert, so a run twice, at once on two processes, or again after a crash finds
 * and writes the same rows.
 */

export interface FoundPair {
  a: number;
  b: number;
  samePhoto: boolean;
  sameIdentity: boolean;
  likeness: number | null;
}

type Rows<T> = { rows: T[] };

const pairKey = (a: number, b: number) => `${a}:${b}`;

function addPair(
  found: Map<string, FoundPair>,
  x: number,
  y: number,
  kind: 'photo' | 'identity',
  like?: number,
) {
  const [a, b] = x < y ? [x, y] : [y, x];
  const key = pairKey(a, b);
  const pair = found.get(key) ?? { a, b, samePhoto: false, sameIdentity: false, likeness: null };
  if (kind === 'photo') {
    pair.samePhoto = true;
    pair.likeness = like ?? null;
  } else pair.sameIdentity = true;
  found.set(key, pair);
}

/**
 * The pairs of hashes (by index into `his`/`los`, two signed 32-bit halves each) within HASH_DISTANCE bits:
 * multi-index hashing, each band's hashes counting-sorted by the band's value, each bucket's halves
 * copied side by side so that the comparisons (10⁸-10⁹ at 100,000 look-alike portraits) run over
 * contiguous memory, a pair kept in the first band the two share. Flat: [i0, j0, i1, j1, ...].
 */
function closeHashPairs(his: Int32Array, los: Int32Array): Int32Array {
  const n = his.length;
  const bands = Array.from({ length: HASH_BANDS }, (_, band) => {
    const values = new Uint16Array(n);
    for (let i = 0; i < n; i++) values[i] = bandOf(his[i], los[i], band);
    return values;
  });
  let close = new Int32Array(1 << 16);
  let found = 0;
  const order = new Int32Array(n);
  const bh = new Int32Array(n);
  const bl = new Int32Array(n);
  for (let band = 0; band < HASH_BANDS; band++) {
    const values = bands[band];
    let top = 0;
    for (let i = 0; i < n; i++) if (values[i] > top) top = values[i];
    const starts = new Int32Array(top + 2);
    for (let i = 0; i < n; i++) starts[values[i] + 1]++;
    for (let v = 0; v <= top; v++) starts[v + 1] += starts[v];
    const fill = starts.slice();
    for (let i = 0; i < n; i++) {
      const at = fill[values[i]]++;
      order[at] = i;
      bh[at] = his[i];
      bl[at] = los[i];
    }
    for (let v = 0; v <= top; v++) {
      const end = starts[v + 1];
      for (let x = starts[v]; x < end; x++) {
        const hx = bh[x];
        const lx = bl[x];
        for (let y = x + 1; y < end; y++) {
          let a = hx ^ bh[y];
          a -= (a >>> 1) & 0x55555555;
          a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
          let b = lx ^ bl[y];
          b -= (b >>> 1) & 0x55555555;
          b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
          const bits =
            ((((a + (a >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24) +
            ((((b + (b >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24);
          if (bits > HASH_DISTANCE) continue;
          const i = order[x];
          const j = order[y];
          // Compared once: in the first band the two share.
          let earlier = false;
          for (let e = 0; e < band && !earlier; e++) earlier = bands[e][i] === bands[e][j];
          if (earlier) continue;
          if (found + 2 > close.length) {
            const grown = new Int32Array(close.length * 2);
            grown.set(close);
            close = grown;
          }
          close[found++] = i;
          close[found++] = j;
        }
      }
    }
  }
  return close.slice(0, found);
}

/** The thumbs of some candidates' photos, by candidate. */
async function thumbsOf(db: Database, ids: number[]): Promise<Map<number, Uint8Array>> {
  const thumbs = new Map<number, Uint8Array>();
  for (let start = 0; start < ids.length; start += 5000) {
    const slice = ids.slice(start, start + 5000);
    const { rows } = (await db.execute(sql`
      select candidate_id, thumb from photo_hashes
      where candidate_id in (select unnest(${`{${slice.join(',')}}`}::int[])) and thumb is not null`)) as unknown as Rows<{
      candidate_id: number;
      thumb: Uint8Array;
    }>;
    for (const row of rows) thumbs.set(row.candidate_id, new Uint8Array(row.thumb));
  }
  return thumbs;
}

/**
 * Every pair among all candidates. Identity: the candidates grouped by identityKey. Photos: the hashes
 * bucketed by each band (multi-index hashing: two hashes within HASH_DISTANCE bits agree on at least one
 * of HASH_BANDS bands), each pair in a bucket compared once (in the first band they share), and those
 * within HASH_DISTANCE decided by their thumbs.
 */
async function findAllPairs(
  db: Database,
  phases: Record<string, number>,
): Promise<{ pairs: FoundPair[]; candidates: number }> {
  let mark = performance.now();
  const lap = (phase: string) => {
    const now = performance.now();
    phases[phase] = Math.round(now - mark);
    mark = now;
  };
  const { rows } = (await db.execute(sql`
    select c.id, c.first_name, c.last_name, c.date_of_birth::text as dob,
           (h.hash >> 32)::int4 as hi, ((h.hash << 32) >> 32)::int4 as lo
    from candidates c
    left join files f on f.candidate_id = c.id and f.field = 'photo'
    left join photo_hashes h on h.file_id = f.id`)) as unknown as Rows<{
    id: number;
    first_name: string;
    last_name: string;
    dob: string;
    hi: number | null;
    lo: number | null;
  }>;
  lap('read');
  const found = new Map<string, FoundPair>();

  const byIdentity = new Map<string, number[]>();
  for (const row of rows) {
    const key = identityKey(row.first_name, row.last_name, row.dob);
    const group = byIdentity.get(key);
    if (group) group.push(row.id);
    else byIdentity.set(key, [row.id]);
  }
  for (const group of byIdentity.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) addPair(found, group[i], group[j], 'identity');
    }
  }

  lap('identity');
  const hashed = rows.filter((row) => row.hi !== null && row.lo !== null);
  const ids = Int32Array.from(hashed, (row) => row.id);
  const his = Int32Array.from(hashed, (row) => row.hi!);
  const los = Int32Array.from(hashed, (row) => row.lo!);
  const close = closeHashPairs(his, los);
  lap('hashes');
  if (close.length) {
    const thumbs = await thumbsOf(db, [...new Set(Array.from(close, (i) => ids[i]))]);
    lap('thumbsRead');
    // The thumbs side by side by index, each with its squared length: a pair's likeness (as `likeness`
    // computes it) is then one pass over two runs of contiguous bytes, millions of times.
    const packed = new Int8Array(ids.length * THUMB_SIZE);
    const squares = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      const thumb = thumbs.get(ids[i]);
      if (!thumb) continue;
      packed.set(new Int8Array(thumb.buffer, thumb.byteOffset, THUMB_SIZE), i * THUMB_SIZE);
      let square = 0;
      for (let k = i * THUMB_SIZE; k < (i + 1) * THUMB_SIZE; k++) square += packed[k] * packed[k];
      squares[i] = square;
    }
    for (let k = 0; k < close.length; k += 2) {
      const i = close[k];
      const j = close[k + 1];
      if (!squares[i] || !squares[j]) continue;
      let dot = 0;
      for (let x = i * THUMB_SIZE, y = j * THUMB_SIZE, end = x + THUMB_SIZE; x < end; x++, y++)
        dot += packed[x] * packed[y];
      const like = dot / Math.sqrt(squares[i] * squares[j]);
      if (like >= SAME_PHOTO_LIKENESS) addPair(found, ids[i], ids[j], 'photo', like);
    }
  }
  lap('likeness');
  return { pairs: [...found.values()], candidates: rows.length };
}

/** One candidate's pairs with everyone else: the same identity among those born that day, the same photo by hash then thumb. */
async function findPairsOf(db: Database, id: number): Promise<FoundPair[]> {
  const { rows: selves } = (await db.execute(sql`
    select c.id, c.first_name, c.last_name, c.date_of_birth::text as dob, h.hash::text as hash, h.thumb
    from candidates c
    left join files f on f.candidate_id = c.id and f.field = 'photo'
    left join photo_hashes h on h.file_id = f.id
    where c.id = ${id}`)) as unknown as Rows<{
    id: number;
    first_name: string;
    last_name: string;
    dob: string;
    hash: string | null;
    thumb: Uint8Array | null;
  }>;
  const self = selves[0];
  if (!self) return [];
  const found = new Map<string, FoundPair>();
  const key = identityKey(self.first_name, self.last_name, self.dob);
  const { rows: born } = (await db.execute(sql`
    select id, first_name, last_name from candidates
    where date_of_birth = ${self.dob} and id <> ${id}`)) as unknown as Rows<{
    id: number;
    first_name: string;
    last_name: string;
  }>;
  for (const other of born) {
    if (identityKey(other.first_name, other.last_name, self.dob) === key)
      addPair(found, id, other.id, 'identity');
  }
  if (self.hash !== null && self.thumb) {
    const thumb = new Uint8Array(self.thumb);
    const { rows: near } = (await db.execute(sql`
      select candidate_id, thumb from photo_hashes
      where candidate_id <> ${id} and thumb is not null
        and bit_count((hash # ${self.hash}::bigint)::bit(64)) <= ${HASH_DISTANCE}`)) as unknown as Rows<{
      candidate_id: number;
      thumb: Uint8Array;
    }>;
    for (const other of near) {
      const like = likeness(thumb, new Uint8Array(other.thumb));
      if (like >= SAME_PHOTO_LIKENESS) addPair(found, id, other.candidate_id, 'photo', like);
    }
  }
  return [...found.values()];
}

/** Only one writer of pairs at a time (a full run's write, a check), on any number of processes. */
const lockPairs = (tx: Database) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext('integrity-pairs'))`);

/** Writes found pairs: new ones inserted, known ones refreshed (`checked_at`); a pair marked not the same person keeps its mark. */
async function savePairs(tx: Database, pairs: FoundPair[]) {
  for (let start = 0; start < pairs.length; start += 1000) {
    const slice = pairs.slice(start, start + 1000);
    await tx.execute(sql`
      insert into duplicate_pairs (candidate_a, candidate_b, same_photo, same_identity, photo_likeness)
      select * from unnest(
        ${`{${slice.map((p) => p.a).join(',')}}`}::int[], ${`{${slice.map((p) => p.b).join(',')}}`}::int[],
        ${`{${slice.map((p) => p.samePhoto).join(',')}}`}::bool[], ${`{${slice.map((p) => p.sameIdentity).join(',')}}`}::bool[],
        ${`{${slice.map((p) => (p.likeness === null ? 'NULL' : p.likeness.toFixed(4))).join(',')}}`}::real[])
      on conflict (candidate_a, candidate_b) do update set
        same_photo = excluded.same_photo, same_identity = excluded.same_identity,
        photo_likeness = excluded.photo_likeness, checked_at = now()`);
  }
}

/**
 * The full run: every pair found again, those no longer found removed (unless marked not the same
 * person), and when and how long it took recorded. Read outside any transaction (PGlite has one
 * connection: a transaction held for the reading would stop the portal); written in one. A candidate
 * changed while it read (their `updated_at`) is left to their own check, which ran or will run after the
 * change: their pairs are neither written nor removed here.
 */
export async function scanAll(db: Database, log?: Logger) {
  const started = performance.now();
  const {
    rows: [{ at }],
  } = (await db.execute(sql`select now()::text as at`)) as unknown as Rows<{ at: string }>;
  const phases: Record<string, number> = {};
  const { pairs, candidates } = await findAllPairs(db, phases);
  const ms = Math.round(performance.now() - started);
  const writing = performance.now();
  await db.transaction(async (tx) => {
    await lockPairs(tx);
    const { rows: changed } = (await tx.execute(
      sql`select id from candidates where updated_at >= ${at}::timestamptz or created_at >= ${at}::timestamptz`,
    )) as unknown as Rows<{ id: number }>;
    const fresh = new Set(changed.map((row) => row.id));
    await savePairs(
      tx,
      pairs.filter((pair) => !fresh.has(pair.a) && !fresh.has(pair.b)),
    );
    const freshList = `{${[...fresh].join(',')}}`;
    await tx.execute(sql`
      delete from duplicate_pairs
      where not_same_at is null and checked_at < ${at}::timestamptz
        and candidate_a <> all(${freshList}::int[]) and candidate_b <> all(${freshList}::int[])`);
    await tx.execute(sql`
      insert into integrity_scans (id, started_at, finished_at, candidates, pairs, ms)
      values (1, ${at}::timestamptz, now(), ${candidates}, ${pairs.length}, ${ms})
      on conflict (id) do update set started_at = excluded.started_at, finished_at = excluded.finished_at,
        candidates = excluded.candidates, pairs = excluded.pairs, ms = excluded.ms`);
  });
  phases.write = Math.round(performance.now() - writing);
  log?.info('integrity.scanned', { candidates, pairs: pairs.length, ms, ...phases });
  return { candidates, pairs: pairs.length, ms, phases };
}

/**
 * Checks the candidates waiting in `integrity_pending` against everyone, a few at a time, each batch in a
 * transaction that holds its rows (skip locked: a second process takes others, or none) and removes
 * them with the pairs written. A candidate's pairs no longer found (their photo or name changed) go.
 */
export async function checkPending(db: Database, batch = 50): Promise<number> {
  let checked = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const { rows } = (await tx.execute(sql`
        select candidate_id from integrity_pending order by candidate_id
        limit ${batch} for update skip locked`)) as unknown as Rows<{ candidate_id: number }>;
      if (!rows.length) return 0;
      const ids = rows.map((row) => row.candidate_id);
      const pairs: FoundPair[] = [];
      for (const id of ids) pairs.push(...(await findPairsOf(tx, id)));
      const {
        rows: [{ at }],
      } = (await tx.execute(sql`select now()::text as at`)) as unknown as Rows<{ at: string }>;
      await lockPairs(tx);
      await savePairs(tx, pairs);
      const list = `{${ids.join(',')}}`;
      // Their pairs not found now: written before this transaction began (`now()` is its start).
      await tx.execute(sql`
        delete from duplicate_pairs
        where not_same_at is null and checked_at < ${at}::timestamptz
          and (candidate_a = any(${list}::int[]) or candidate_b = any(${list}::int[]))`);
      await tx.execute(sql`delete from integrity_pending where candidate_id = any(${list}::int[])`);
      return ids.length;
    });
    if (!done) return checked;
    checked += done;
  }
}

/** Finds and records some candidates' pairs in the caller's transaction (the demo's seed). */
export async function recordPairsOf(tx: Database, ids: number[]) {
  const pairs: FoundPair[] = [];
  for (const id of ids) pairs.push(...(await findPairsOf(tx, id)));
  await savePairs(tx, pairs);
}

/** Queues a candidate's check, in the caller's transaction (indexing, a changed photo or identity). */
export async function queueCheck(tx: Database, candidateId: number) {
  await tx.execute(
    sql`insert into integrity_pending (candidate_id) values (${candidateId}) on conflict do nothing`,
  );
}
