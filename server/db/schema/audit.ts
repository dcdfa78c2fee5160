import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './auth';
import { trainingSchools } from './schools';

/**
 * The audit trail (server/audit.ts); `action` is one of contract/audit.ts's catalogue. Append-only and
 * hash-chained (server/auditChain.ts, docs/decisions.md "A tamper-evident audit log"): the database's
 * triggers (migration 0022) refuse UPDATE, DELETE and TRUNCATE, and fill `seq`, `prev_hash` and `hash`
 * on every insert, whatever the insert gave them.
 */
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
    /** The entry's place in the chain: 1, 2, 3… without gaps (set by the chain trigger). */
    seq: bigint('seq', { mode: 'number' }).notNull().default(0),
    /** The hash of the entry before (64 zeros for the first), set by the chain trigger. */
    prevHash: text('prev_hash').notNull().default(''),
    /** sha256 over prev_hash and the entry's canonical text (server/auditChain.ts), set by the trigger. */
    hash: text('hash').notNull().default(''),
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
    // A school's entries of one kind (its registrations, its payments) is what an auditor asks most
    // often together: on the school's index alone it read every other kind of the school's too.
    index('audit_log_school_action_idx').on(t.schoolId, t.action, t.at, t.id),
    uniqueIndex('audit_log_seq_idx').on(t.seq),
  ],
);

/**
 * The chain's head, one row, kept apart from the entries: the last entry's place, id, hash and time.
 * Updated only by the insert trigger, under its row lock, which is what keeps concurrent writers on one
 * chain. A log cut short or extended behind the portal's back no longer ends where the head says.
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    one: boolean('one').primaryKey().default(true),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    lastId: bigint('last_id', { mode: 'number' }),
    lastHash: text('last_hash').notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }),
  },
  (t) => [check('audit_chain_head_one', sql`${t.one}`)],
);
