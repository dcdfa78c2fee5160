import type { DocumentScope } from '../builder';

/**
 * The chosen diet of a document that requires one (contract/documents.ts DOCUMENTS says which): the
 * print pipeline resolves it before any builder runs, so its absence here is a bug, not a user's error.
 */
export function dietOf(scope: DocumentScope): NonNullable<DocumentScope['diet']> {
  if (!scope.diet) throw new Error('This document is built for a diet, and none was resolved.');
  return scope.diet;
}

/** The diet as the papers name it. */
export const dietNameOf = (diet: NonNullable<DocumentScope['diet']>) => `${diet.name} (${diet.code})`;

/** What a hall's papers would carry and the portal does not hold: said, never invented. */
export const HALL_NOTICE =
  'The portal does not hold examination centres, halls or seat numbers: the board assigns them outside it.';
