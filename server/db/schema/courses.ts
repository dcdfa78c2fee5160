import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CourseStatus } from '../../../contract/courses';
import { createdAt, updatedAt } from './columns';

export const courseHeaders = pgTable(
  'course_headers',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    title: text('title').notNull(),
    /** open or closed. */
    indexingStatus: text('indexing_status').$type<CourseStatus>().notNull().default('open'),
    registrationStatus: text('registration_status').$type<CourseStatus>().notNull().default('open'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('course_headers_code_key').on(t.code)],
);
