import { fromPromise } from 'xstate';
import { CANDIDATE_READ, CANDIDATE_RECORD } from '../../contract/candidates.reads';
import type { BulkRegistrationRequest, BulkRegistrationResult } from '../../contract/registration';
import type { Role } from '../../contract/roles';
import { send } from './send';

/** What the candidate lists and the edit page's lookup call; src/api/candidates.ts carries the form's I/O. */

// The writes' endpoints carry their checks (VineJS, 32 KB): fetched when a row is first changed, not
// with the lists, which only read.
const candidateWrites = () =>
  import('../../contract/candidates.endpoints').then((m) => m.CANDIDATE_ENDPOINTS);
const registrationWrites = () =>
  import('../../contract/registration.endpoints').then((m) => m.REGISTRATION_ENDPOINTS);

export const loadCandidate = async (id: number) => (await send(CANDIDATE_READ, { params: { id } })).data;

/** A candidate's record page, on the caller's own endpoint (a school admin: their school's only). */
export const loadCandidateDossier = async (role: Role, id: number) =>
  (await send(CANDIDATE_RECORD[role], { params: { id } })).data;

/** The status toggle's save for a candidate's reg_status, on the caller's own endpoint. */
export const updateRegStatus = (role: Role) =>
  fromPromise<{ value: string; message?: string }, { id: number | string; field: string; value: string }>(
    async ({ input }) => {
      const { data, message } = await send((await candidateWrites()).regStatus[role], {
        params: { id: input.id },
        body: { reg_status: input.value },
      });
      return { value: data.reg_status, message };
    },
  );

/** The status toggle's save for the board's document check. */
export const updateVerification = fromPromise<
  { value: string; message?: string },
  { id: number | string; field: string; value: string }
>(async ({ input }) => {
  const { data, message } = await send((await candidateWrites()).verification, {
    params: { id: input.id },
    body: { verified: input.value === 'true' },
  });
  return { value: String(data.verified), message };
});

/** Many candidates registered at once (machines/bulkRegistration.machine.ts), on the caller's endpoint. */
export const registerInBulk = (role: Role) =>
  fromPromise<BulkRegistrationResult, BulkRegistrationRequest>(
    async ({ input }) => (await send((await registrationWrites()).bulk[role], { body: input })).data,
  );
