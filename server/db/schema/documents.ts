import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { DOCUMENT_JOB_STATES, type DocumentHeading } from '../../../contract/documents';
import type { DocumentQuery } from '../../../contract/documents.validators';
import type { PrintDocumentEnding } from '../../../contract/navigation';
import { users } from './auth';
import { createdAt, updatedAt } from './columns';
import { payments } from './payments';
import { trainingSchools } from './schools';

/**
 * Printed documents (contract/documents.ts) and payment receipts, as verification reads them back: what
 * was asked (the query by codes, so the same scope can be resolved again), what the paper certified as a
 * whole and row by row, and who printed it when. A code (server/documents/codes.ts) names a print and a
 * row or card of it; nothing else is needed to check it.
 */

/** A print's query by codes (contract DocumentQuery), or a receipt's payment reference. */
export type StoredQuery = {
  diet?: string;
  school?: string;
  course_header?: string;
  paper?: number;
  candidate?: string;
  variant?: string;
  reference?: string;
};

/**
 * What a paper as a whole certified, label and value in the order printed (a list of pairs, since a
 * jsonb object keeps no order of its keys).
 */
type StoredFacts = [label: string, value: string][];

/**
 * What each row or card certified, block by block in print order, compactly: the labels once, then
 * each row's key and its values in the labels' order (null: the row did not say it). Row number n (of a
 * card's code) is row n - first of the group whose rows it falls in.
 */
export type StoredRowFacts = { block: number; first: number; labels: string[]; rows: (string | null)[][] }[];

export const documentPrints = pgTable(
  'document_prints',
  {
    id: serial('id').primaryKey(),
    ending: text('ending').$type<PrintDocumentEnding | 'receipt'>().notNull(),
    query: jsonb('query').$type<StoredQuery>().notNull(),
    /** The school the paper is about (a school admin's own prints, a school's list), for scoping. */
    trainingSchoolId: integer('training_school_id').references(() => trainingSchools.id),
    /** A receipt's payment (ending 'receipt'). */
    paymentId: integer('payment_id').references(() => payments.id),
    printedBy: integer('printed_by')
      .notNull()
      .references(() => users.id),
    impersonatorId: integer('impersonator_id').references(() => users.id),
    printedAt: timestamp('printed_at', { withTimezone: true }).notNull().defaultNow(),
    heading: jsonb('heading').$type<DocumentHeading[]>().notNull(),
    facts: jsonb('facts').$type<StoredFacts>().notNull(),
    rowFacts: jsonb('row_facts').$type<StoredRowFacts>().notNull().default([]),
    rowCount: integer('row_count').notNull().default(0),
    /** Set by `finish()` once every row was drawn; null: the drawing stopped before the end. */
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('document_prints_school_idx').on(t.trainingSchoolId, t.id),
    index('document_prints_payment_idx').on(t.paymentId, t.id),
  ],
);

/** The board's choice of whether training schools may print a document (no row: DOCUMENTS[e].schools). */
export const schoolDocumentChoices = pgTable('school_document_choices', {
  ending: text('ending').$type<PrintDocumentEnding>().primaryKey(),
  allowed: boolean('allowed').notNull(),
  changedBy: integer('changed_by').references(() => users.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Secrets the portal makes itself once and keeps for good, shared by every API process on the same
 * database and carried by its backups: the key that signs documents' codes ('document_codes').
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

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
    /**
     * The print the job records (document_prints), set with it in one transaction: a retry reprints
     * into the same row, so a job leaves one print however often it runs (server/documents/jobs.ts).
     */
    printId: integer('print_id').references(() => documentPrints.id),
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
