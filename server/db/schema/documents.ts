import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { DOCUMENT_JOB_STATES } from '../../../contract/documents';
import type { DocumentQuery } from '../../../contract/documents.validators';
import { users } from './auth';
import { createdAt, updatedAt } from './columns';
import { trainingSchools } from './schools';

/**
 * A large PDF built on the job queue (server/documents/jobs.ts): what was asked (the document and its
 * query, as the caller sent it: the worker checks it again against the caller, as the route would),
 * by whom, its progress, and the stored PDF once ready. The file's key is made when the job is, so a
 * job run twice (a retry, a crash, two processes) writes the same file, never a second one. Removed,
 * with its file, by the upkeep DOCUMENT_JOB_DAYS after it was asked.
 */
export const documentJobs = pgTable(
  'document_jobs',
  {
    id: serial('id').primaryKey(),
    ending: text('ending').notNull(),
    title: text('title').notNull(),
    query: jsonb('query').$type<DocumentQuery>().notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** A school admin's school: its admins see the job; null for a board admin's (theirs alone). */
    trainingSchoolId: integer('training_school_id').references(() => trainingSchools.id),
    state: text('state', { enum: DOCUMENT_JOB_STATES }).notNull().default('queued'),
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    fileKey: text('file_key').notNull(),
    bytes: integer('bytes'),
    message: text('message'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('document_jobs_created_by_idx').on(t.createdBy),
    index('document_jobs_school_idx').on(t.trainingSchoolId),
    index('document_jobs_created_at_idx').on(t.createdAt),
  ],
);
