import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { isRealIsoDate } from './dates';
import { isoDate } from './dates.validators';
import {
  DIET_CODE_PATTERN,
  DIET_MESSAGES as M,
  DIET_NAME_MAX,
  EXTENSION_REASON_MAX,
  parseBoardMoment,
} from './diets';
import { formValidator } from './formValidator';

/**
 * A diet's form and an extension's, run by the dialog in the browser and by the server on every call.
 * Dates are YYYY-MM-DD; moments are typed in Lagos time (2027-03-31T17:00) and come out as ISO instants.
 */

/** A Lagos moment, replaced by its instant. */
const boardMoment = vine.createRule((value, _options, field: FieldContext) => {
  const instant = typeof value === 'string' ? parseBoardMoment(value) : null;
  if (!instant) return field.report(M.momentInvalid, 'boardMoment', field);
  field.mutate(instant, field);
});

/** This field (a date or an instant, compared as text: both sort so) comes after a sibling field. */
const after = vine.createRule(
  (value, options: { sibling: string; message: string; orEqual?: boolean }, field: FieldContext) => {
    const other = field.parent?.[options.sibling];
    if (typeof value !== 'string' || typeof other !== 'string') return;
    const earlier = options.orEqual ? value < other : value <= other;
    if (earlier) field.report(options.message, 'after', field);
  },
);

/** Registration closes before the first paper starts (its day in Lagos, compared as text). */
const beforePapers = vine.createRule((value, _options, field: FieldContext) => {
  const first = field.parent?.first_paper_on;
  if (typeof value === 'string' && isRealIsoDate(first) && value.slice(0, 10) > first) {
    field.report(M.closesAfterPapers, 'beforePapers', field);
  }
});

const dietSchema = vine.object({
  code: vine.string().trim().toUpperCase().maxLength(20).regex(DIET_CODE_PATTERN),
  name: vine.string().trim().minLength(1).maxLength(DIET_NAME_MAX),
  first_paper_on: vine.string().trim().use(isoDate()),
  last_paper_on: vine
    .string()
    .trim()
    .use(isoDate())
    .use(after({ sibling: 'first_paper_on', message: M.lastBeforeFirst, orEqual: true })),
  registration_opens_at: vine.string().trim().use(boardMoment()),
  registration_closes_at: vine
    .string()
    .trim()
    .use(boardMoment())
    .use(after({ sibling: 'registration_opens_at', message: M.closesBeforeOpens }))
    .use(beforePapers()),
});

export const dietValidator = formValidator(dietSchema, {
  'code.required': M.codeRequired,
  'code.string': M.codeRequired,
  'code.maxLength': M.codeInvalid,
  'code.regex': M.codeInvalid,
  'name.required': M.nameRequired,
  'name.string': M.nameRequired,
  'name.minLength': M.nameRequired,
  'name.maxLength': M.tooLong,
  'first_paper_on.required': M.dateRequired,
  'first_paper_on.string': M.dateRequired,
  'last_paper_on.required': M.dateRequired,
  'last_paper_on.string': M.dateRequired,
  'registration_opens_at.required': M.momentRequired,
  'registration_opens_at.string': M.momentRequired,
  'registration_closes_at.required': M.momentRequired,
  'registration_closes_at.string': M.momentRequired,
});

export const extensionValidator = formValidator(
  vine.object({
    training_school: vine.string().trim().toUpperCase().maxLength(100),
    until: vine.string().trim().use(boardMoment()),
    reason: vine.string().trim().minLength(1).maxLength(EXTENSION_REASON_MAX),
  }),
  {
    'training_school.required': M.schoolRequired,
    'training_school.string': M.schoolRequired,
    'training_school.maxLength': M.schoolUnknown,
    'until.required': M.untilRequired,
    'until.string': M.untilRequired,
    'reason.required': M.reasonRequired,
    'reason.string': M.reasonRequired,
    'reason.minLength': M.reasonRequired,
    'reason.maxLength': M.tooLong,
  },
);
