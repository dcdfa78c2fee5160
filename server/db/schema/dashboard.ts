import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The Dashboard's aggregates over every candidate (server/dashboard/summary.ts), kept by the
 * `dashboard-summary` job each minute: one row a scope ('board'), its counts as JSON and when they were
 * counted. The cheap counts (schools, payments today, queues) are read live; these would take a pass
 * over the candidates and their registrations at each visit.
 */
export const dashboardSummaries = pgTable('dashboard_summaries', {
  scope: text('scope').primaryKey(),
  data: jsonb('data').notNull(),
  countedAt: timestamp('counted_at', { withTimezone: true }).notNull(),
});
