import type { Context } from 'hono';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import type { Mailer } from '../mail/mailer';
import type { Storage, WithStorage } from '../storage/storage';
import type { Actor } from '../audit';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import type { Role } from '../../contract/roles';

/**
 * What every handler can reach: the portal's parts. The parts an area owns add themselves to this
 * interface where they are defined (declaration merging), so that this layer imports no area: `jobs`,
 * the job queue (server/jobs/handle.ts), and `payments`, the payment provider (server/payments/provider.ts).
 */
export interface Deps {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  /** Uploaded files (local disk under DATA_DIR/uploads for now). */
  storage: Storage;
  log: Logger;
  /**
   * The server's clock: registration windows are decided by it, never by the browser's. Tests give
   * their own, to decide a window to the second; the portal uses the real time.
   */
  clock?: () => Date;
}

export interface Caller {
  userId: number;
  role: Role;
  trainingSchoolId: number | null;
  tokenId: number;
  impersonatorId: number | null;
}

export interface AppEnv {
  Variables: {
    deps: Deps;
    requestId: string;
    ip: string | null;
    caller: Caller | null;
  };
}

export type AppContext = Context<AppEnv>;

/** The caller of a route the access matrix restricts to signed-in roles (the middleware ran first). */
export function callerOf(c: AppContext): Caller {
  const caller = c.get('caller');
  if (!caller) throw new Error('callerOf() used on a route that the access matrix leaves public');
  return caller;
}

/** Whose rows a list may show: every school's (board admins) or one school's (school admins). */
export type ListScope = { kind: 'board' } | { kind: 'school'; schoolId: number | null };

/** Whose candidates the caller works on: a board admin every school's, a school admin their own's. */
export function scopeOf(c: AppContext): ListScope {
  const caller = callerOf(c);
  return caller.role === 'admin' ? { kind: 'board' } : { kind: 'school', schoolId: caller.trainingSchoolId };
}

/** Who is acting, as services and the audit log take it (server/audit.ts). */
export function actorOf(c: AppContext): Actor {
  const caller = c.get('caller');
  return {
    userId: caller?.userId ?? null,
    impersonatorId: caller?.impersonatorId ?? null,
    ip: c.get('ip'),
    requestId: c.get('requestId'),
  };
}

/**
 * Runs a service in one transaction with the caller as its actor: what a handler does between reading
 * its valid input and answering. A domain error thrown inside rolls the whole change back.
 */
export function transact<T>(c: AppContext, work: (tx: Database, actor: Actor) => Promise<T>): Promise<T> {
  return c.get('deps').database.db.transaction((tx) => work(tx, actorOf(c)));
}

/** The database and the storage, for a service that stores files (server/storage/storage.ts). */
export const withStorage = (c: AppContext): WithStorage => {
  const { database, storage, log } = c.get('deps');
  return { db: database.db, storage, log };
};

/** Now, by the server's clock (Deps.clock). */
export const nowOf = (c: AppContext): Date => c.get('deps').clock?.() ?? new Date();

/** The database outside a transaction, for reads. */
export const dbOf = (c: AppContext): Database => c.get('deps').database.db;
