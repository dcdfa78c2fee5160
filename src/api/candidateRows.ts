import { fromPromise } from 'xstate';
import { CANDIDATE_PATHS, type CandidateRecord, type CandidateRow } from '../../contract/candidates';
import {
  BULK_REGISTRATION_PATHS,
  type BulkRegistrationRequest,
  type BulkRegistrationResult,
} from '../../contract/registration';
import type { Role } from '../../contract/roles';
import { call, messageOf } from './client';

/**
 * What the candidate lists and the edit page's lookup call: no VineJS here, so a list opens without the
 * form's chunk (src/api/candidates.ts carries the form's I/O and its validator).
 */

export const loadCandidate = (id: number) =>
  call<CandidateRecord>(CANDIDATE_PATHS.adminCandidate(id)).then((response) => response.data!);

/** The status toggle's save for a candidate's reg_status, on the caller's own endpoint. */
export const updateRegStatus = (role: Role) =>
  fromPromise<{ value: string; message?: string }, { id: number | string; field: string; value: string }>(
    async ({ input }) => {
      const response = await call<CandidateRow>(CANDIDATE_PATHS.regStatus[role](Number(input.id)), {
        method: 'POST',
        body: { reg_status: input.value },
      });
      return { value: response.data!.reg_status, message: messageOf(response) };
    },
  );

/** The status toggle's save for the board's document check. */
export const updateVerification = fromPromise<
  { value: string; message?: string },
  { id: number | string; field: string; value: string }
>(async ({ input }) => {
  const response = await call<CandidateRow>(CANDIDATE_PATHS.verification(Number(input.id)), {
    method: 'POST',
    body: { verified: input.value === 'true' },
  });
  return { value: String(response.data!.verified), message: messageOf(response) };
});

/** Many candidates registered at once (machines/bulkRegistration.machine.ts), on the caller's endpoint. */
export const registerInBulk = (role: Role) =>
  fromPromise<BulkRegistrationResult, BulkRegistrationRequest>(async ({ input }) => {
    const response = await call<BulkRegistrationResult>(BULK_REGISTRATION_PATHS[role], {
      method: 'POST',
      body: input,
    });
    return response.data!;
  });
