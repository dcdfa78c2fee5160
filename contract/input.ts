import vine from '@vinejs/vine';

/**
 * What every input must be, whatever the form: checked once, centrally, by the server's validation
 * middleware (server/http/validate.ts) before any form's own rules, so hostile input is a 422 in the
 * user's words and never reaches the database as something it cannot store.
 */

/** The largest id a serial column holds. */
export const MAX_ID = 2_147_483_647;

/** How deeply a body's objects and lists may nest: far past any form of ours. */
export const MAX_INPUT_DEPTH = 32;

export const INPUT_MESSAGES = {
  /** A NUL or an unpaired surrogate: nothing a person types, and nothing PostgreSQL stores as text. */
  unreadable: 'This contains characters that cannot be read. Please type it again.',
  tooDeep: 'This request is not one the portal can read.',
} as const;

/** Text a person could have typed: no NUL, no unpaired surrogate. */
const READABLE = /^(?:[^\0\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

export const isReadable = (text: string): boolean => READABLE.test(text);

/**
 * An id in a JSON body: a whole number from 1 to MAX_ID, sent as a number. Strict, so `"1"`, `true` and
 * `[1]` are refused rather than read as 1; bounded, so 2147483648 or 1e308 never reach the database.
 */
export const idField = () => vine.number({ strict: true }).withoutDecimals().range([1, MAX_ID]);

/** The rules of idField, for a validator's messages (`{ [field.rule]: message }`). */
export const ID_RULES = ['required', 'number', 'withoutDecimals', 'range'] as const;

/** A cell of an uploaded CSV that is not readable text (a NUL, a lone surrogate, bytes not UTF-8). */
export const unreadableCell = (row: number | 'header', column: string) =>
  `${row === 'header' ? 'The header row' : `Row ${row}`}, column ${column}: ${INPUT_MESSAGES.unreadable}`;
