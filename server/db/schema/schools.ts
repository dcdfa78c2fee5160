import { index, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SchoolStatus } from '../../../contract/schools';
import { createdAt, updatedAt } from './columns';

export const trainingSchools = pgTable(
  'training_schools',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull().default('NG'),
    address: text('address').notNull().default(''),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    /** active or suspended. */
    status: text('status').$type<SchoolStatus>().notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('training_schools_code_key').on(t.code), index('training_schools_name_idx').on(t.name)],
);
