import { SimpleMessagesProvider, Vine } from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { OFFENCE_LIMITS as L, OFFENDER_MESSAGES as M } from './offenders';

/**
 * Recording an offence: run by the dialog's form in the browser and again by the server. Whether the
 * index number names an indexed candidate only the server can say.
 */

/** A real calendar date written year-month-day (what a date input sends). */
export function isRealIsoDate(value: unknown): value is string {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
  return (
    date.getUTCFullYear() === +match[1] &&
    date.getUTCMonth() === +match[2] - 1 &&
    date.getUTCDate() === +match[3]
  );
}

const isoDate = new Vine().createRule((value, _options, field: FieldContext) => {
  if (!isRealIsoDate(value)) field.report(M.dateInvalid, 'isoDate', field);
});

/** The end, when given, is not before the start (ISO dates compare as text). */
const notBeforeFrom = new Vine().createRule((value, _options, field: FieldContext) => {
  const from = field.parent?.sanction_from;
  if (typeof value === 'string' && isRealIsoDate(from) && value < from) {
    field.report(M.untilBeforeFrom, 'notBeforeFrom', field);
  }
});

// A form's empty input is an empty string: it counts as not given.
const vine = new Vine();
vine.convertEmptyStringsToNull = true;

const offenceSchema = vine.object({
  candidate_index: vine.string().trim().maxLength(L.candidateIndexMax),
  exam: vine.string().trim().maxLength(L.examMax),
  offence: vine.string().trim().maxLength(L.offenceMax),
  sanction: vine.string().trim().maxLength(L.sanctionMax),
  sanction_from: vine.string().trim().use(isoDate()),
  sanction_until: vine.string().trim().use(isoDate()).use(notBeforeFrom()).nullable().optional(),
});

export const offenceValidator = vine.create(offenceSchema);
/** Missing, and given as anything but text, say the same. */
const required = (field: string, message: string) => ({
  [`${field}.required`]: message,
  [`${field}.string`]: message,
});

offenceValidator.messagesProvider = new SimpleMessagesProvider({
  ...required('candidate_index', M.candidateIndexRequired),
  ...required('exam', M.examRequired),
  ...required('offence', M.offenceRequired),
  ...required('sanction', M.sanctionRequired),
  ...required('sanction_from', M.sanctionFromRequired),
  'sanction_until.string': M.dateInvalid,
  maxLength: M.tooLong,
});
