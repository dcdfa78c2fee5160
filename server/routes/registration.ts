import { CANDIDATE_OUTCOME_MESSAGES as O } from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { DIET_MESSAGES } from '../../contract/diets';
import type { ValidOf } from '../../contract/endpoint';
import { BULK_REGISTRATION_MESSAGES as B, bulkRegistrationSummary } from '../../contract/registration';
import { REGISTRATION_ENDPOINTS } from '../../contract/registration.endpoints';
import type { Role } from '../../contract/roles';
import { loadRow } from '../candidates/records';
import { registerInBulk, setRegStatus, type BulkRegistrationAsk } from '../candidates/registration';
import { Invalid, NotFound } from '../errors';
import { dbOf, nowOf, scopeOf, transact } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/** Exactly one way of asking: the ticked ids, or every verified candidate of the named diet. */
function askOf(body: ValidOf<typeof REGISTRATION_ENDPOINTS.bulk.admin>): BulkRegistrationAsk {
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
  serve(CANDIDATE_ENDPOINTS.regStatus[role], async (c) => {
    const { reg_status } = c.req.valid('json');
    const id = idOf(c, O.notFound);
    await transact(c, (tx, actor) => setRegStatus(tx, actor, scopeOf(c), id, reg_status, nowOf(c)));
    const row = await loadRow(dbOf(c), id);
    if (!row) throw new NotFound(O.notFound);
    return ok(c, row, reg_status === 'registered' ? O.registered : O.unregistered);
  }),

  /** `{ candidate_ids }` or `{ all_verified: true, diet, course_header?, year? }`: the count and each row. */
  serve(REGISTRATION_ENDPOINTS.bulk[role], async (c) => {
    const ask = askOf(c.req.valid('json'));
    const result = await transact(c, (tx, actor) => registerInBulk(tx, actor, scopeOf(c), ask, nowOf(c)));
    return ok(c, result, bulkRegistrationSummary(result));
  }),
];

export const boardRegistrationRoutes = registrationRoutes('admin');
export const schoolRegistrationRoutes = registrationRoutes('school_admin');
