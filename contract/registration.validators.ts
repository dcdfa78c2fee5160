import vine from '@vinejs/vine';
import { CANDIDATE_OUTCOME_MESSAGES as O, CANDIDATE_RULE_MESSAGES as R, REG_STATUSES } from './candidates';
import { DIET_CODE_PATTERN, DIET_MESSAGES } from './diets';
import { formValidator } from './formValidator';
import { BULK_REGISTRATION_LIMIT, BULK_REGISTRATION_MESSAGES as B } from './registration';

/** A candidate's registration status, set by the board or the school (one candidate). */
export const regStatusValidator = formValidator(vine.object({ reg_status: vine.enum(REG_STATUSES) }), {
  'reg_status.required': R.choose,
  'reg_status.enum': R.choose,
});

/** The largest id a candidate can have (a PostgreSQL integer): anything past it is not an id. */
const MAX_ID = 2_147_483_647;

/** Registration in bulk: the ticked ids, or every verified candidate of a diet, filtered. */
export const bulkRegistrationValidator = formValidator(
  vine.object({
    candidate_ids: vine
      .array(vine.number({ strict: true }).withoutDecimals().min(1).max(MAX_ID))
      .minLength(1)
      .maxLength(BULK_REGISTRATION_LIMIT)
      .optional(),
    all_verified: vine.literal(true).optional(),
    diet: vine.string().trim().regex(DIET_CODE_PATTERN).optional(),
    course_header: vine.string().trim().maxLength(10).optional(),
    year: vine.number({ strict: true }).withoutDecimals().min(1950).max(9999).optional(),
  }),
  {
    'candidate_ids.array': B.chooseCandidates,
    'candidate_ids.array.minLength': B.chooseCandidates,
    'candidate_ids.array.maxLength': B.tooMany,
    'candidate_ids.*.number': O.notFound,
    'candidate_ids.*.withoutDecimals': O.notFound,
    'candidate_ids.*.min': O.notFound,
    'candidate_ids.*.max': O.notFound,
    'candidate_ids.*.required': O.notFound,
    'all_verified.literal': B.oneWay,
    'diet.regex': DIET_MESSAGES.dietUnknown,
    'diet.string': DIET_MESSAGES.dietUnknown,
    'course_header.string': R.choose,
    'course_header.maxLength': R.tooLong,
    'year.number': R.yearInvalid,
    'year.withoutDecimals': R.yearInvalid,
    'year.min': R.yearInvalid,
    'year.max': R.yearInvalid,
  },
);
