import { and, eq, getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { AUDIT_ACTIONS, type AuditAction } from '../contract/audit';
import type { Database } from './db/client';
import { schoolOfEntry } from './auditSchool';
import { auditLog } from './db/schema';
import { NotFound, type DomainError } from './errors';

/**
 * Who acts, from where: the signed-in user (null for a sign-in not finished yet, a webhook or a job),
 * the admin behind an impersonation, the address and the request. Services take it with their
 * transaction instead of the HTTP context, so anything can call them.
 */
export interface Actor {
  userId: number | null;
  impersonatorId: number | null;
  ip: string | null;
  requestId: string | null;
}

/** The user an actor is, for a change only a signed-in user makes (whose row records who made it). */
export function userOf(actor: Actor): number {
  if (actor.userId === null) throw new Error('This change is made by a signed-in user, and there is none.');
  return actor.userId;
}

export interface AuditEntry {
  action: AuditAction;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** Every state change, sign-in and impersonation goes through here (security baseline). */
export async function audit(db: Database, actor: Actor, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor.userId,
    impersonatorId: actor.impersonatorId,
    ip: actor.ip,
    requestId: actor.requestId,
    action: entry.action,
    entity: AUDIT_ACTIONS[entry.action],
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    schoolId: schoolOfEntry(AUDIT_ACTIONS[entry.action], entry.entityId, actor.userId),
  });
}

/** A table a change can be audited on: rows with a serial `id`. */
export type AuditedTable = PgTable & { id: PgColumn };
type RowOf<T extends AuditedTable> = T['$inferSelect'];
type Snapshot = Record<string, unknown>;

export interface AuditedChange<T extends AuditedTable> {
  table: T;
  id: number;
  /** More the row must be to be this change's (a school admin's account, a row still listed). */
  where?: SQL;
  /** The 404's sentence when there is no such row (or the error to throw then). */
  notFound: string | DomainError;
  action: AuditAction;
  /**
   * What the entry keeps of the row, before and after, and what is compared: a change that leaves it
   * as it is writes nothing. It may read related rows (a candidate's uploads).
   */
  snapshot: (row: RowOf<T>) => Snapshot | Promise<Snapshot>;
  /** What to set, from the locked row; throws a domain error to refuse the change. */
  set: (row: RowOf<T>) => PgUpdateSetSource<T> | Promise<PgUpdateSetSource<T>>;
  /**
   * Write the entry even when the snapshot would not change: a form saved as a whole is an event, and
   * what it changes may not be in the row (an upload sent again). Otherwise nothing is written then.
   */
  always?: boolean;
  /** The rest of the same change, after the update (files, tokens, notices); its answer joins `after`. */
  then?: (row: RowOf<T>, before: RowOf<T>) => Promise<Snapshot | void>;
}

/** The same JSON for two snapshots (Dates as their ISO text); key order is the snapshot function's. */
const same = (a: Snapshot, b: Snapshot) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Stands in, for the comparison only, for a value the database computes (`now()`): a time no row
 * holds, so a snapshot that keeps it sees a change, and one that reads it as a date still can.
 */
const COMPUTED = new Date(-8.64e15);
const proposed = <R>(row: R, values: object): R =>
  ({
    ...row,
    ...Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, is(value, SQL) ? COMPUTED : value]),
    ),
  }) as R;

/**
 * The one audited change: lock the row (`for update`), take what to set from it (or a refusal), compare,
 * update it (stamping `updated_at` where the table has one), do the rest of the change, and write the
 * audit entry with before and after, all in the caller's transaction. A change that would leave the
 * snapshot as it is writes nothing, neither the row nor an entry. Throws NotFound when there is no row.
 */
export async function changeAudited<T extends AuditedTable>(
  tx: Database,
  actor: Actor,
  change: AuditedChange<T>,
): Promise<{ row: RowOf<T>; changed: boolean }> {
  const { table, id } = change;
  const byId = eq(table.id, id);
  const [locked] = (await tx
    .select()
    .from(table as PgTable)
    .where(change.where ? and(byId, change.where) : byId)
    .for('update')) as RowOf<T>[];
  if (!locked) throw typeof change.notFound === 'string' ? new NotFound(change.notFound) : change.notFound;

  const values = await change.set(locked);
  const before = await change.snapshot(locked);
  if (!change.always && same(before, await change.snapshot(proposed(locked, values)))) {
    return { row: locked, changed: false };
  }
  const stamp = 'updatedAt' in getTableColumns(table) ? { updatedAt: sql`now()` } : {};
  const [row] = (await tx
    .update(table)
    .set({ ...stamp, ...values } as PgUpdateSetSource<T>)
    .where(byId)
    .returning()) as RowOf<T>[];
  const more = (await change.then?.(row, locked)) ?? {};
  await audit(tx, actor, {
    action: change.action,
    entityId: id,
    before,
    after: { ...(await change.snapshot(row)), ...more },
  });
  return { row, changed: true };
}

/** A change nobody signed in made: the provider's webhook, a background job. */
export const systemActor = (requestId: string | null = null, ip: string | null = null): Actor => ({
  userId: null,
  impersonatorId: null,
  ip,
  requestId,
});
