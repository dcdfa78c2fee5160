import { boolean, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { BulkProblem } from '../../../contract/bulkIndexing';
import { users } from './auth';
import { createdAt, updatedAt } from './columns';

/**
 * A bulk indexing batch (contract/bulkIndexing.ts): the CSV's rows as read, the dry run's problems, and
 * the import's progress. The zip stays in the storage (`zip_key`, with its `files` row, so the sweep
 * keeps it) until the batch is finished.
 */
export const bulkBatches = pgTable('bulk_batches', {
  id: serial('id').primaryKey(),
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  /** The CSV's records, each the row's values under the template's column names. */
  rows: jsonb('rows').$type<Record<string, string>[]>().notNull(),
  problems: jsonb('problems').$type<BulkProblem[]>().notNull(),
  /** Rows (1-based) with no problem at the dry run. */
  goodRows: jsonb('good_rows').$type<number[]>().notNull(),
  zipKey: text('zip_key'),
  /** The last row the import has gone through. */
  importedThrough: integer('imported_through').notNull().default(0),
  indexed: jsonb('indexed').$type<{ row: number; candidate_index: string }[]>().notNull().default([]),
  finished: boolean('finished').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
