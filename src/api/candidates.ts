import { fromCallback, fromPromise } from 'xstate';
import {
  CANDIDATE_RULE_MESSAGES as R,
  SUBMISSION_KEY_FIELD,
  type CandidateRecord,
  type UploadField,
} from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS as E } from '../../contract/candidates.endpoints';
import {
  candidateValidator,
  normaliseCandidateInput,
  withStoredUploads,
} from '../../contract/candidates.validators';
import { fillPath, runValidator } from '../../contract/endpoint';
import type { ApiFailure, FieldMessages } from '../../contract/envelope';
import { METHOD_OVERRIDE_FIELD } from '../../contract/profile';
import type { CandidateFormEvent, SubmitCandidateInput } from '../../machines/candidateForm.machine';
import type { FormValues } from '../../machines/formDialog.machine';
import { apiUrl } from './apiUrl';
import { failureFromBody, NETWORK_FAILURE, noticeUnauthenticated, noticeWrite } from './client';
import { readToken } from './cookies';
import { FIELDS_NEED_ATTENTION } from './send';

/** The candidate form's I/O (machines/candidateForm.machine.ts); the lists' calls are in candidateRows.ts. */

/** Choices the portal refuses for a new value: a course header closed for indexing, a suspended school. */
export interface ChoiceRules {
  closedCourseHeaders: ReadonlySet<string>;
  suspendedSchools: ReadonlySet<string>;
  /**
   * What the candidate being edited has already: keeping it is allowed (as the server allows it), and a
   * stored upload satisfies its rule without being chosen again.
   */
  current?: { course_header: string; school_code: string; uploads: readonly UploadField[] };
}

/**
 * The spec's rules, in the browser, with the same validator the server runs, and the choices the
 * form's options already show the server would refuse: said at once, before any upload is sent. (The
 * form is an upload, which `send` does not check: the page checks it before it is built.)
 */
export const validateCandidate = (rules: ChoiceRules) =>
  fromPromise<void, FormValues>(async ({ input }) => {
    const refused: FieldMessages = {};
    const chosen = (name: 'course_header' | 'school_code') =>
      typeof input[name] === 'string' && input[name] !== rules.current?.[name] ? input[name] : '';
    if (rules.closedCourseHeaders.has(chosen('course_header'))) refused.course_header = [R.indexingClosed];
    if (rules.suspendedSchools.has(chosen('school_code'))) refused.school_code = [R.schoolSuspended];
    const checked = await runValidator(
      candidateValidator,
      withStoredUploads(normaliseCandidateInput(input), rules.current?.uploads ?? []),
    );
    const fields: FieldMessages = checked.fields ?? {};
    for (const [field, messages] of Object.entries(refused)) {
      fields[field] = [...(fields[field] ?? []), ...messages];
    }
    if (Object.keys(fields).length) {
      const failure: ApiFailure = { status: 422, message: FIELDS_NEED_ATTENTION, fields };
      throw failure;
    }
  });

/**
 * The multipart upload, with progress: sent here, not by `send`, since fetch cannot report an upload's
 * progress (XMLHttpRequest can).
 */
export const submitCandidate = fromCallback<CandidateFormEvent, SubmitCandidateInput>(
  ({ input, sendBack }) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(normaliseCandidateInput(input.values))) {
      form.append(name, value as string | Blob);
    }
    form.set(SUBMISSION_KEY_FIELD, input.submissionKey);
    const endpoint = input.candidateId ? E.update : E.create;
    const path = fillPath(endpoint.path, input.candidateId ? { id: input.candidateId } : {});
    if (input.candidateId) form.set(METHOD_OVERRIDE_FIELD, 'PUT');

    const request = new XMLHttpRequest();
    request.open(endpoint.method, apiUrl(path));
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
