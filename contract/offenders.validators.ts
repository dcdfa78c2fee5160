import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { isRealIsoDate } from './dates';
import { isoDate } from './dates.validators';
import { formValidator } from './formValidator';
import { OFFENCE_LIMITS as L, OFFENDER_MESSAGES as M } from './offenders';

/**
 * Recording an offence: run by the dialog's form in the browser and again by the server. Whether the
 * index number names an indexed candidate only the server can say.
 */

/** The end, when given, is not before the start (ISO dates compare as text). */
const notBeforeFrom = vine.createRule((value, _options, field: FieldContext) => {
  const from = field.parent?.sanction_from;
  if (typeof value === 'string' && isRealIsoDate(from) && value < from) {
    field.report(M.untilBeforeFrom, 'notBeforeFrom', field);
  }
});

const offenceSchema = vine.object({
  candidate_index: vine.string().trim().maxLength(L.candidateIndexMax),
  diet: vine.string().trim().toUpperCase().maxLength(20),
  offence: vine.string().trim().maxLength(L.offenceMax),
  sanction: vine.string().trim().maxLength(L.sanctionMax),
  // By diets, or by dates: the number of diets, or the date it starts.
  sanction_diets: vine
    .number({ strict: true })
    .withoutDecimals()
    .range([1, L.sanctionDietsMax])
    .nullable()
    .optional(),
  sanction_from: vine.string().trim().use(isoDate()).optional().requiredIfMissing('sanction_diets'),
  sanction_until: vine.string().trim().use(isoDate()).use(notBeforeFrom()).nullable().optional(),
});

/** Missing, and given as anything but text, say the same. */
const required = (field: string, message: string) => ({
  [`${field}.required`]: message,
  [`${field}.string`]: message,
});

export const offenceValidator = formValidator(offenceSchema, {
  ...required('candidate_index', M.candidateIndexRequired),
  ...required('diet', M.dietRequired),
  'diet.maxLength': M.dietUnknown,
  'sanction_diets.number': M.sanctionDietsInvalid,
  'sanction_diets.withoutDecimals': M.sanctionDietsInvalid,
  'sanction_diets.range': M.sanctionDietsInvalid,
  ...required('offence', M.offenceRequired),
  ...required('sanction', M.sanctionRequired),
  ...required('sanction_from', M.sanctionFromRequired),
  'sanction_from.requiredIfMissing': M.sanctionFromRequired,
  'sanction_until.string': M.dateInvalid,
  maxLength: M.tooLong,
});
