import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';

/** Reference lists written to every database (server/db/reference.ts). */

export const nationalities = pgTable(
  'nationalities',
  {
    id: serial('id').primaryKey(),
    /** ISO 3166-1 alpha-2. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** Nigeria 0, the rest by name. */
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('nationalities_code_key').on(t.code),
    index('nationalities_position_idx').on(t.position),
  ],
);
