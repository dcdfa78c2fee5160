import { fromCallback, fromPromise } from 'xstate';
import { CANDIDATE_PATHS, SUBMISSION_KEY_FIELD, type CandidateRecord } from '../../contract/candidates';
import { candidateValidator, normaliseCandidateInput } from '../../contract/candidates.validators';
import { checkInBrowser } from './listForms';
import { METHOD_OVERRIDE_FIELD } from '../../contract/profile';
import type { CandidateFormEvent, SubmitCandidateInput } from '../../machines/candidateForm.machine';
import type { FormValues } from '../../machines/formDialog.machine';
import { apiUrl, failureFromBody, NETWORK_FAILURE, noticeUnauthenticated, noticeWrite } from './client';
import { readToken } from './cookies';

/** The candidate form's I/O (machines/candidateForm.machine.ts); the lists' calls are in candidateRows.ts. */

/** The spec's rules, in the browser, with the same validator the server runs. */
export const validateCandidate = fromPromise<void, FormValues>(({ input }) =>
  checkInBrowser(candidateValidator, normaliseCandidateInput(input)),
);

/** The multipart upload, with progress (fetch cannot report upload progress; XMLHttpRequest can). */
export const submitCandidate = fromCallback<CandidateFormEvent, SubmitCandidateInput>(
  ({ input, sendBack }) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(normaliseCandidateInput(input.values))) {
      form.append(name, value as string | Blob);
    }
    form.set(SUBMISSION_KEY_FIELD, input.submissionKey);
    const path = input.candidateId
      ? CANDIDATE_PATHS.adminCandidate(input.candidateId)
      : CANDIDATE_PATHS.adminCandidates;
    if (input.candidateId) form.set(METHOD_OVERRIDE_FIELD, 'PUT');

    const request = new XMLHttpRequest();
    request.open('POST', apiUrl(path));
    const token = readToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) =>
      sendBack({
        type: 'candidate.progress',
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : 0,
      });
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      if (request.status >= 200 && request.status < 300) {
        noticeWrite();
        const envelope = body as { message?: string; data: CandidateRecord };
        sendBack({
          type: 'candidate.saved',
          record: envelope.data,
          message: envelope.message ?? 'Candidate saved.',
        });
        return;
      }
      const failure = failureFromBody(request.status, body);
      noticeUnauthenticated(failure);
      sendBack({ type: 'candidate.failed', error: failure });
    };
    request.onerror = () => sendBack({ type: 'candidate.failed', error: NETWORK_FAILURE });
    request.ontimeout = request.onerror;
    request.send(form);
    // Leaving the state (the page closed) abandons the upload; a retry sends the same key.
    return () => request.abort();
  },
);
