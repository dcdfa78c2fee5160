import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { trainingSchools } from './schools';

/** The audit trail (server/audit.ts); `action` is one of contract/audit.ts's catalogue. */

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorId: integer('actor_id').references(() => users.id),
    impersonatorId: integer('impersonator_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
    /**
     * The training school the entry is about (the entity's school, else the acting user's), filled by
     * `audit()` when it is written, so the audit trail filters by school on an index. Null: the board's
     * own (a diet, a course header, a fee).
     */
    schoolId: integer('school_id').references(() => trainingSchools.id),
  },
  // The audit trail's page is newest first (`at`, then `id`): each filter has an index that ends in
  // that order, so a page is the first rows of one index range, whatever the table's size.
  (t) => [
    index('audit_log_at_idx').on(t.at, t.id),
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.at, t.id),
    index('audit_log_actor_idx').on(t.actorId, t.at, t.id),
    index('audit_log_impersonator_idx')
      .on(t.impersonatorId, t.at, t.id)
      .where(sql`${t.impersonatorId} is not null`),
    index('audit_log_action_idx').on(t.action, t.at, t.id),
    index('audit_log_school_idx').on(t.schoolId, t.at, t.id),
  ],
);
