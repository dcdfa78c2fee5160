import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import type { Database, DatabaseHandle } from '../db/client';
import type { Logger } from '../log';

/**
 * Who a bearer token belongs to, kept in memory for a while, so that a request does not ask the
 * database first (issue 28: the token's lookup was a round trip of every request, a third of a list
 * page's cost beside its SQL). Correctness first: an answer kept here is never one the database would
 * no longer give.
 *
 * - Every change that can end or alter a token's caller (a token revoked, its expiry moved, a user's
 *   role, school or active flag changed, a user or token deleted) sends a NOTIFY on CALLERS_CHANNEL
 *   from a trigger in the same transaction (migration 0024_caller_changes), whichever code or process
 *   made it; PostgreSQL delivers it when that transaction commits, to every portal process, and each
 *   forgets every caller it keeps. PGlite delivers it in its one process the same way.
 * - The process that makes such a change also forgets at once (`forgetCallers`), so its own next
 *   request (a sign-out's caller trying the token again) never waits for the notification.
 * - An answer read from the database while such a change was forgotten is not kept (a generation
 *   count: a read that began before the forget may hold the old state).
 * - Nothing is kept while the process does not listen (before it listens, when its listening connection
 *   breaks, until it listens again): every request asks the database, as before.
 * - A kept caller still ends at its token's expiry, and after KEEP_MS whatever happens.
 *
 * What is kept is the token's id, the SHA-256 of its secret and the owner: the secret itself never.
 */
const CALLERS_CHANNEL = 'portal_callers';

/** However quiet the channel, a kept caller is asked about again after this. */
const KEEP_MS = 30_000;
/** Tokens kept at most (the oldest are forgotten first); a board's staff and schools fit many times. */
const MAX_KEPT = 20_000;
/** A broken listening connection is made again after this. */
const RELISTEN_MS = 2_000;

interface KeptOwner {
  tokenId: number;
  userId: number;
  impersonatorId: number | null;
  role: string;
  trainingSchoolId: number | null;
}

interface Entry {
  /** The SHA-256 of the token's secret, hex, as stored. */
  hash: string;
  owner: KeptOwner;
  /** The token's own expiry (ms since the epoch). */
  expiresAt: number;
  /** When the token's last use was last written (ms): written again a minute after. */
  lastUsedAt: number;
  keptUntil: number;
}

export class CallerCache {
  private entries = new Map<number, Entry>();
  private listening = false;
  /** Bumped by every forget: a read begun under an older generation is not kept. */
  generation = 0;

  get(tokenId: number, now = Date.now()): Entry | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(tokenId);
    if (!entry) return undefined;
    if (now >= entry.keptUntil || now >= entry.expiresAt) {
      this.entries.delete(tokenId);
      return undefined;
    }
    return entry;
  }

  keep(generation: number, tokenId: number, entry: Omit<Entry, 'keptUntil'>, now = Date.now()) {
    if (!this.listening || generation !== this.generation) return;
    if (this.entries.size >= MAX_KEPT) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenId, { ...entry, keptUntil: now + KEEP_MS });
  }

  forget() {
    this.generation++;
    this.entries.clear();
  }

  /** Keeping starts once the process listens for changes, and stops (forgetting all) when it cannot. */
  setListening(listening: boolean) {
    this.forget();
    this.listening = listening;
  }

  get size() {
    return this.entries.size;
  }
}

/** One cache a database (tests run several portals in one process, each its own database). */
const caches = new Map<Database, CallerCache>();

/** The cache of this database, or none when no portal listens on it (every lookup asks the database). */
export const callerCacheOf = (db: Database): CallerCache | undefined => caches.get(db);

/**
 * Forget every caller this process keeps, now (a change is made inside a transaction, whose handle is
 * not the database's: every cache of the process forgets; the notification reaches the other processes).
 */
export function forgetCallers() {
  for (const cache of caches.values()) cache.forget();
}

/**
 * Listens for caller changes on the portal's database and keeps callers while it does. Answers the
 * function that stops listening (the portal's close).
 */
export async function watchCallers(
  database: DatabaseHandle & { pglite?: PGlite },
  target: { driver: 'postgres'; url: string } | { driver: 'pglite' },
  log: Logger,
): Promise<() => Promise<void>> {
  const cache = new CallerCache();
  caches.set(database.db, cache);
  if (target.driver === 'pglite') {
    const unlisten = await database.pglite!.listen(CALLERS_CHANNEL, () => cache.forget());
    cache.setListening(true);
    return async () => {
      cache.setListening(false);
      caches.delete(database.db);
      await unlisten();
    };
  }
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  const listen = async () => {
    const next = new pg.Client({ connectionString: target.url });
    const broken = () => {
      if (client !== next) return;
      client = null;
      cache.setListening(false);
      next.end().catch(() => {});
      if (!stopped) timer = setTimeout(() => void listen(), RELISTEN_MS);
    };
    next.on('error', broken);
    next.on('end', broken);
    next.on('notification', () => cache.forget());
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${CALLERS_CHANNEL}`);
      if (client === next && !stopped) cache.setListening(true);
    } catch (error) {
      log.error('callers.listen_failed', { message: (error as Error).message });
      broken();
    }
  };
  await listen();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    cache.setListening(false);
    caches.delete(database.db);
    const last = client;
    client = null;
    await last?.end().catch(() => {});
  };
}
