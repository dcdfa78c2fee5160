import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt } from './columns';

/** Every file the portal stores (server/storage): the key is made by the server, never by the user. */
export const files = pgTable(
  'files',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    /** What the file is for, which decides who may see it: 'profile_photo' or 'candidate_upload'. */
    kind: text('kind').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    /** Found by the file's content, never taken from the upload's headers. */
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** A candidate's upload: whose, and which field of the form (contract UPLOAD_FIELDS). */
    candidateId: integer('candidate_id').references((): AnyPgColumn => candidates.id),
    field: text('field'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_key_key').on(t.key),
    index('files_owner_idx').on(t.ownerId),
    // One stored file a field of a candidate; a replaced one is deleted in the same transaction.
    uniqueIndex('files_candidate_field_key').on(t.candidateId, t.field),
  ],
);
