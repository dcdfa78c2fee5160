import type { Context } from 'hono';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import type { Mailer } from '../mail/mailer';
import type { Storage } from '../storage/storage';
import type { AuditActor } from '../audit';
import type { Logger } from './log';
import type { Role } from '../../contract/roles';

/** What every handler can reach: the portal's parts, and who is calling. */
export interface Deps {
  config: Config;
  database: DatabaseHandle;
  mailer: Mailer;
  /** Uploaded files (local disk under DATA_DIR/uploads for now). */
  storage: Storage;
  log: Logger;
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

export function auditActor(c: AppContext): AuditActor {
  const caller = c.get('caller');
  return {
    actorId: caller?.userId ?? null,
    impersonatorId: caller?.impersonatorId ?? null,
    ip: c.get('ip'),
    requestId: c.get('requestId'),
  };
}
