import vine from '@vinejs/vine';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  REG_STATUSES,
} from '../../contract/candidates';
import { DIET_CODE_PATTERN, DIET_MESSAGES } from '../../contract/diets';
import { formValidator } from '../../contract/formValidator';
import {
  BULK_REGISTRATION_LIMIT,
  BULK_REGISTRATION_MESSAGES as B,
  BULK_REGISTRATION_PATHS,
  bulkRegistrationSummary,
} from '../../contract/registration';
import { rolePrefix, type Role } from '../../contract/roles';
import { loadRow } from '../candidates/records';
import { registerInBulk, setRegStatus, type BulkRegistrationAsk } from '../candidates/registration';
import { Invalid, NotFound } from '../errors';
import { dbOf, nowOf, scopeOf, transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { post, type Route } from '../http/route';
import { json } from '../http/validate';

const regStatusValidator = formValidator(vine.object({ reg_status: vine.enum(REG_STATUSES) }), {
  'reg_status.required': R.choose,
  'reg_status.enum': R.choose,
});

/** The largest id a candidate can have (a PostgreSQL integer): anything past it is not an id. */
const MAX_ID = 2_147_483_647;

const bulkValidator = formValidator(
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

/** Exactly one way of asking: the ticked ids, or every verified candidate of the named diet. */
function askOf(body: Awaited<ReturnType<typeof bulkValidator.validate>>): BulkRegistrationAsk {
  if (body.candidate_ids && body.all_verified) throw new Invalid({ all_verified: [B.oneWay] });
  if (body.candidate_ids) return { kind: 'ids', ids: body.candidate_ids };
  if (!body.all_verified) throw new Invalid({ candidate_ids: [B.chooseCandidates] });
  if (!body.diet) throw new Invalid({ diet: [DIET_MESSAGES.dietRequired] });
  return {
    kind: 'allVerified',
    diet: body.diet,
    courseHeader: body.course_header || undefined,
    year: body.year,
  };
}

/**
 * Registration for the diet current for registration, for each role under its own prefix: the
 * registered-candidates row toggle, and many candidates at once (issue 22). Both go through one service
 * function (server/candidates/registration.ts changeRegistrations): the board changes any candidate, a
 * school admin their own school's while their window is open.
 */
const registrationRoutes = (role: Role): Route[] => [
  post(`${rolePrefix(role)}/candidates/:id/reg-status`, [role], json(regStatusValidator), async (c) => {
    const { reg_status } = c.req.valid('json');
    const id = idOf(c, O.notFound);
    await transact(c, (tx, actor) => setRegStatus(tx, actor, scopeOf(c), id, reg_status, nowOf(c)));
    const row = await loadRow(dbOf(c), id);
    if (!row) throw new NotFound(O.notFound);
    return ok(c, row, reg_status === 'registered' ? O.registered : O.unregistered);
  }),

  /** `{ candidate_ids }` or `{ all_verified: true, diet, course_header?, year? }`: the count and each row. */
  post(BULK_REGISTRATION_PATHS[role], [role], json(bulkValidator), async (c) => {
    const ask = askOf(c.req.valid('json'));
    const result = await transact(c, (tx, actor) => registerInBulk(tx, actor, scopeOf(c), ask, nowOf(c)));
    return ok(c, result, bulkRegistrationSummary(result));
  }),
];

export const boardRegistrationRoutes = registrationRoutes('admin');
export const schoolRegistrationRoutes = registrationRoutes('school_admin');
