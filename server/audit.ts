import type { Database } from './db/client';
import { auditLog } from './db/schema';

/** Who did it, from where: taken from the request by the caller. */
export interface AuditActor {
  actorId: number | null;
  impersonatorId: number | null;
  ip: string | null;
  requestId: string | null;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Every state change, sign-in and impersonation goes through here (security baseline). */
export async function audit(db: Database, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.actorId,
    impersonatorId: actor.impersonatorId,
    ip: actor.ip,
    requestId: actor.requestId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
