import { timestamp } from 'drizzle-orm/pg-core';

/** When a row was made and last changed; every change through changeAudited stamps `updated_at`. */
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
