import { eq, gte, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AuditAction } from '../../contract/audit';
import {
  AUDIT_TRAIL_MESSAGES,
  type AuditEntity,
  type AuditEntryRow,
  type AuditPerson,
} from '../../contract/auditTrail';
import type { Role } from '../../contract/roles';
import { startOfBoardDay } from '../boardDate';
import type { Database } from '../db/client';
import { auditLog, scoreSheets, trainingSchools, users } from '../db/schema';
import { normaliseEmail } from '../users';

/**
 * The audit trail's list (AUDIT_TRAIL_LIST, contract/lists.ts): newest first by (at, id), each filter
 * on an index that ends in that order (server/db/schema/audit.ts), so a page, and the page after a
 * cursor, is the first rows of one index range at a million entries. People and schools are named by
 * email and code in the query and found once per request (a scalar subquery on a unique index).
 */

const actors = alias(users, 'actor');
const impersonators = alias(users, 'impersonator');

const personColumns = (table: typeof actors | typeof impersonators) => ({
  id: table.id,
  name: table.name,
  email: table.email,
  role: table.role,
});

/**
 * A mark's entry on an exam sheet whose two markers have not both submitted: its marks are withheld
 * from everyone, as the grids are (blind double marking, server/scores/blind.ts `unblinded`), until
 * both have; the entry itself (who saved which grid, when) is shown.
 */
const marksStillBlind = sql<boolean>`(${auditLog.action} = 'mark.changed' and exists (select 1 from ${scoreSheets}
  where ${scoreSheets.id} = case when ${auditLog.entityId} ~ '^[0-9]{1,9}$' then ${auditLog.entityId}::int end
  and ${scoreSheets.kind} = 'exam'
  and (${scoreSheets.markerOneSubmittedAt} is null or ${scoreSheets.markerTwoSubmittedAt} is null)))`;

const selectEntries = (db: Database) =>
  db
    .select({
      entry: auditLog,
      actor: personColumns(actors),
      impersonator: personColumns(impersonators),
      school: { id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name },
      blind: marksStillBlind,
    })
    .from(auditLog)
    .leftJoin(actors, eq(actors.id, auditLog.actorId))
    .leftJoin(impersonators, eq(impersonators.id, auditLog.impersonatorId))
    .leftJoin(trainingSchools, eq(trainingSchools.id, auditLog.schoolId))
    .$dynamic();

type Selected = Awaited<ReturnType<typeof selectEntries>>[number];

/** A left-joined user (null when the entry has none: a webhook, a job). */
const person = (
  row: { id: number | null; name: string | null; email: string | null; role: string | null } | null,
): AuditPerson | null =>
  row?.id == null
    ? null
    : { id: row.id, name: row.name ?? '', email: row.email ?? '', role: row.role as Role };

function toAuditEntryRow({ entry, actor, impersonator, school, blind }: Selected): AuditEntryRow {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action as AuditAction,
    entity: entry.entity as AuditEntity,
    entity_id: entry.entityId,
    actor: person(actor),
    impersonator: person(impersonator),
    school: school?.id == null ? null : { id: school.id, code: school.code ?? '', name: school.name ?? '' },
    ip: entry.ip,
    request_id: entry.requestId,
    before: blind ? null : entry.before,
    after: blind ? null : entry.after,
    withheld: blind ? AUDIT_TRAIL_MESSAGES.marksWithheld : null,
  };
}

/** The user with this email, as a scalar subquery (none: no row matches). */
const userByEmail = (email: string) =>
  sql`(select ${users.id} from ${users} where ${users.email} = ${normaliseEmail(email)})`;

/** The day after a YYYY-MM-DD day. */
const nextDay = (day: string) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

export const auditTrailSource = {
  rows: selectEntries,
  matching: (db: Database) =>
    db
      .select({ one: sql`1` })
      .from(auditLog)
      .$dynamic(),
  key: auditLog.id,
  filters: {
    actor: (email: string) => eq(auditLog.actorId, userByEmail(email)),
    impersonator: (email: string) => eq(auditLog.impersonatorId, userByEmail(email)),
    action: (action: string) => eq(auditLog.action, action),
    entity: (entity: string) => eq(auditLog.entity, entity),
    entity_id: (id: string) => eq(auditLog.entityId, id),
    school: (code: string) =>
      eq(
        auditLog.schoolId,
        sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.code} = ${code.toUpperCase()})`,
      ),
    // Days are Lagos days, both ends included.
    from: (day: string) => gte(auditLog.at, startOfBoardDay(day)),
    to: (day: string) => lt(auditLog.at, startOfBoardDay(nextDay(day))),
  },
  sorts: { at: [auditLog.at] },
  keyset: true,
  toRow: toAuditEntryRow,
};
