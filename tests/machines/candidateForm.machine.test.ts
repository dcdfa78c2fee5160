import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import {
  CANDIDATE_MESSAGES,
  CANDIDATE_RULE_MESSAGES,
  SUBJECT_FIELDS,
  CERTIFICATE_FIELDS,
  IDENTITY_FIELDS,
  type CandidateRecord,
  type TextField,
} from '../../contract/candidates';
import type { ApiFailure, FieldMessages } from '../../contract/envelope';
import {
  candidateFormMachine,
  type CandidateFormEvent,
  type CandidateFormInput,
  type SubmitCandidateInput,
} from '../../machines/candidateForm.machine';
import type { FormValues } from '../../machines/formDialog.machine';
import type { NotifyEmitted } from '../../machines/notify';
import {
  createPathModel,
  matchCoverageFile,
  defaultDescribeEvent,
  errorOf,
  type ActorCall,
  type ReplayStep,
} from './paths';

const GENERIC = 'Something went wrong. Please try again.';
const KEY = 'sub_0f3c9a2e-first-form';
const NEW_KEY = 'sub_7b1d44c0-next-form';

const failure = (status: number, message: string, fields: FieldMessages = {}): ApiFailure => ({
  status,
  message,
  fields,
});

/** What the user typed, a photo included (the upload sends files as they are). */
const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'ada.jpg', { type: 'image/jpeg' });
const typed: FormValues = Object.freeze({
  first_name: 'Ad',
  last_name: 'Obi',
  school_code: 'TS003',
  course_header: 'A4',
  date_of_birth: '04/07/2001',
  photo,
});
/** The same form, corrected after the messages beside its fields. */
const corrected: FormValues = Object.freeze({ ...typed, first_name: 'Ada' });

const inputs: CandidateFormInput[] = [
  // Indexing a new candidate.
  { submissionKey: KEY },
  // Editing candidate 42.
  { submissionKey: KEY, candidateId: 42 },
];

const fields = Object.fromEntries(
  [...IDENTITY_FIELDS, ...CERTIFICATE_FIELDS, ...SUBJECT_FIELDS].map((name) => [name, null]),
) as Record<TextField, string | null>;
const record: CandidateRecord = {
  id: 42,
  candidate_index: 'WHB/26/A4/000123',
  first_name: 'Ada',
  middle_name: null,
  last_name: 'Obi',
  school: { id: 3, code: 'TS003', name: 'Lagos School of Nursing' },
  course_header: { code: 'A4', title: 'Community Health', registration_status: 'open' },
  year: 2026,
  reg_status: 'unregistered',
  verified: false,
  created_at: '2026-01-12T09:30:00.000Z',
  fields: { ...fields, first_name: 'Ada', last_name: 'Obi', school_code: 'TS003', course_header: 'A4' },
  uploads: { photo: { url: '/files/candidates/42/photo.jpg', content_type: 'image/jpeg', size: 3 } },
};
const SAVED_MESSAGE = 'Candidate indexed: WHB/26/A4/000123';

/** The browser's own check (the shared validator): a 422 of field messages, or a bug in it. */
const validateErrors: unknown[] = [
  failure(422, 'Some fields need your attention.', {
    first_name: [CANDIDATE_MESSAGES.firstNameShort],
    photo: [CANDIDATE_MESSAGES.fileTooLarge],
  }),
  new TypeError("Cannot read properties of undefined (reading 'trim')"),
];

/** How the upload can end badly: the server's own checks (422), the network (0), the server (500). */
const uploadFailures: unknown[] = [
  failure(422, CANDIDATE_RULE_MESSAGES.indexingClosed, {
    course_header: [CANDIDATE_RULE_MESSAGES.indexingClosed],
  }),
  failure(0, 'The portal could not be reached. Check your connection and try again.'),
  failure(500, 'The portal answered 500. Please try again.'),
  // Not an ApiFailure: still a sentence.
  new TypeError('Failed to fetch'),
];

/** The upload's progress reports: a quarter, all of it, and a length the browser could not compute. */
const progressReports = [
  { loaded: 512, total: 2048 },
  { loaded: 2048, total: 2048 },
  { loaded: 700, total: 0 },
];

const events: CandidateFormEvent[] = [
  { type: 'candidate.submit', values: typed },
  { type: 'candidate.submit', values: corrected },
  { type: 'candidate.retry' },
  { type: 'candidate.new', submissionKey: NEW_KEY },
  ...progressReports.map((report) => ({ type: 'candidate.progress' as const, ...report })),
  { type: 'candidate.saved', record, message: SAVED_MESSAGE },
  ...uploadFailures.map((error) => ({ type: 'candidate.failed' as const, error })),
];

/** The sentence a failure shows: its own message, else the generic one. */
const messageOf = (error: unknown) => (error instanceof Error ? GENERIC : (error as ApiFailure).message);
const fieldsOf = (error: unknown) => (error instanceof Error ? {} : (error as ApiFailure).fields);
const statusOf = (error: unknown) => (error instanceof Error ? 0 : (error as ApiFailure).status);

/** Path names tell the variants apart: which values, which report, which failure. */
function describeEvent(event: AnyEventObject): string {
  const known = event as CandidateFormEvent;
  switch (known.type) {
    case 'candidate.submit':
      return `candidate.submit(${known.values === typed ? 'typed' : 'corrected'})`;
    case 'candidate.progress':
      return `candidate.progress(${known.loaded}/${known.total})`;
    case 'candidate.failed':
      return `candidate.failed(${known.error instanceof Error ? known.error.name : statusOf(known.error)})`;
    default:
      return defaultDescribeEvent(event);
  }
}

/**
 * What the form must hold after `upTo` steps of a path, worked out from the events alone: the values of the
 * last submit (none after candidate.new), the key (a new one only from candidate.new), the record of the last
 * success, and the input of every request made, in order.
 */
function expected(replayed: ReplayStep<typeof candidateFormMachine>) {
  const { path, index } = replayed;
  let values: FormValues | null = null;
  let key = path.input.submissionKey;
  let result: CandidateRecord | null = null;
  let progress = 0;
  const validated: FormValues[] = [];
  const uploads: SubmitCandidateInput[] = [];
  for (const step of path.steps.slice(1, index + 1)) {
    const event = step.event as CandidateFormEvent | { type: string };
    if (event.type === 'candidate.submit') {
      values = (event as Extract<CandidateFormEvent, { type: 'candidate.submit' }>).values;
      validated.push(values);
    }
    if (event.type === 'candidate.new') {
      key = (event as Extract<CandidateFormEvent, { type: 'candidate.new' }>).submissionKey;
      values = null;
      result = null;
      progress = 0;
    }
    if (event.type === 'candidate.saved') {
      result = (event as Extract<CandidateFormEvent, { type: 'candidate.saved' }>).record;
      progress = 1;
    }
    if (event.type === 'candidate.progress') {
      const { loaded, total } = event as Extract<CandidateFormEvent, { type: 'candidate.progress' }>;
      progress = total > 0 ? loaded / total : 0;
    }
    // The upload starts once the browser's check passed, and again on each retry.
    if (event.type === 'xstate.done.actor.validate' || event.type === 'candidate.retry') {
      uploads.push({ values: values!, submissionKey: key, candidateId: path.input.candidateId ?? null });
      progress = 0;
    }
  }
  return { values, key, result, progress, validated, uploads };
}

const ofSrc = (calls: readonly ActorCall[], src: string) => calls.filter((call) => call.src === src);

function checkCandidateForm(replayed: ReplayStep<typeof candidateFormMachine>): void {
  const { step, snapshot, previous, calls, emitted, path } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const want = expected(replayed);

  // Tags are exactly the states the views read them for.
  const validating = snapshot.matches('validating');
  const submitting = snapshot.matches('submitting');
  expect(snapshot.hasTag('busy'), at).toBe(validating || submitting);
  expect(snapshot.hasTag('uploading'), at).toBe(submitting);
  expect(snapshot.hasTag('invalid'), at).toBe(snapshot.matches('invalid'));
  expect(snapshot.hasTag('failed'), at).toBe(snapshot.matches('failed'));
  expect(snapshot.hasTag('succeeded'), at).toBe(snapshot.matches('succeeded'));

  // Nothing typed is lost: the values of the last submit stay, the very same object, until candidate.new.
  expect(context.values, `${at}: values`).toBe(want.values);
  expect(context.submissionKey, `${at}: submission key`).toBe(want.key);
  expect(context.candidateId, at).toBe(path.input.candidateId ?? null);
  expect(context.result, `${at}: result`).toBe(want.result);

  // Exactly one request while busy, the one of the state; none otherwise.
  const running = calls.filter((call) => call.status === 'pending');
  expect(
    running.map((call) => call.id),
    `${at}: running`,
  ).toEqual(validating ? ['validate'] : submitting ? ['submitCandidate'] : []);
  // The browser's check got each submit's values; every upload (retries included) the values of the last
  // submit and the key of this form: the same key on every attempt, a new one only after candidate.new.
  expect(
    ofSrc(calls, 'validate').map((call) => call.input),
    `${at}: validated`,
  ).toEqual(want.validated);
  ofSrc(calls, 'validate').forEach((call, n) => expect(call.input, at).toBe(want.validated[n]));
  const uploads = ofSrc(calls, 'submitCandidate');
  expect(
    uploads.map((call) => call.input),
    `${at}: uploads`,
  ).toEqual(want.uploads);
  uploads.forEach((call, n) =>
    expect((call.input as SubmitCandidateInput).values, at).toBe(want.uploads[n].values),
  );
  // The form never tells the upload anything: the upload reports, the machine listens.
  for (const call of calls) expect(call.received, at).toEqual([]);

  // Progress: a fraction, from the last report; back to zero on each attempt, full on success.
  expect(context.progress, `${at}: progress`).toBe(want.progress);
  expect(context.progress, at).toBeGreaterThanOrEqual(0);
  expect(context.progress, at).toBeLessThanOrEqual(1);
  if (snapshot.matches('succeeded')) expect(context.progress, at).toBe(1);
  // No stale message under a spinner or beside a saved record.
  if (submitting || snapshot.matches('succeeded') || snapshot.matches('editing')) {
    expect(context.fieldErrors, at).toEqual({});
    expect(context.error, at).toBeNull();
  }
  if (snapshot.matches('succeeded')) expect(context.result, at).not.toBeNull();

  switch (event.type) {
    case 'xstate.init':
      expect(snapshot.value, at).toBe('editing');
      expect(context).toEqual({
        submissionKey: path.input.submissionKey,
        candidateId: path.input.candidateId ?? null,
        values: null,
        fieldErrors: {},
        error: null,
        progress: 0,
        result: null,
      });
      break;
    case 'candidate.submit':
      // Checked in the browser first; the upload has not started.
      expect(snapshot.value, at).toBe('validating');
      expect(
        uploads.filter((call) => call.status === 'pending'),
        at,
      ).toEqual([]);
      expect(emitted, at).toEqual([]);
      break;
    case 'xstate.done.actor.validate':
    case 'candidate.retry':
      // Each attempt starts from nothing: no progress, no old message.
      expect(snapshot.value, at).toBe('submitting');
      expect(context.progress, at).toBe(0);
      if (event.type === 'candidate.retry') {
        // The retry sends exactly what the failed attempt sent, the key included.
        expect(previous?.matches('failed'), at).toBe(true);
        expect(uploads.length, at).toBeGreaterThanOrEqual(2);
        expect(uploads[uploads.length - 1].input, at).toEqual(uploads[uploads.length - 2].input);
        expect(uploads[uploads.length - 2].status, at).toBe('stopped');
      }
      expect(emitted, at).toEqual([]);
      break;
    case 'xstate.error.actor.validate': {
      // Refused in the browser: the messages beside the fields, nothing sent, no toast.
      const error = errorOf(event);
      expect(snapshot.value, at).toBe('invalid');
      expect(context.fieldErrors, at).toEqual(fieldsOf(error));
      expect(context.error, at).toBe(messageOf(error));
      expect(
        uploads.filter((call) => call.status === 'pending'),
        at,
      ).toEqual([]);
      expect(emitted, at).toEqual([]);
      break;
    }
    case 'candidate.progress': {
      const { loaded, total } = event as Extract<CandidateFormEvent, { type: 'candidate.progress' }>;
      expect(snapshot.value, at).toBe('submitting');
      expect(context.progress, at).toBe(total > 0 ? loaded / total : 0);
      expect(emitted, at).toEqual([]);
      break;
    }
    case 'candidate.saved': {
      const saved = event as Extract<CandidateFormEvent, { type: 'candidate.saved' }>;
      expect(snapshot.value, at).toBe('succeeded');
      expect(context.result, at).toBe(saved.record);
      expect(context.progress, at).toBe(1);
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'success', message: SAVED_MESSAGE },
      ] satisfies NotifyEmitted[]);
      break;
    }
    case 'candidate.failed':
    case 'xstate.error.actor.submitCandidate': {
      const error =
        event.type === 'candidate.failed'
          ? (event as Extract<CandidateFormEvent, { type: 'candidate.failed' }>).error
          : errorOf(event);
      // 422: the server's own checks, to correct; anything else (network, server, a bug): retry as it is.
      expect(snapshot.value, at).toBe(statusOf(error) === 422 ? 'invalid' : 'failed');
      expect(context.fieldErrors, at).toEqual(fieldsOf(error));
      expect(context.error, at).toBe(messageOf(error));
      expect(context.progress, at).toBe(previous?.context.progress);
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'error', message: messageOf(error) },
      ] satisfies NotifyEmitted[]);
      break;
    }
    case 'candidate.new':
      // A new, empty form with a new key.
      expect(previous?.matches('succeeded'), at).toBe(true);
      expect(snapshot.value, at).toBe('editing');
      expect(context).toMatchObject({ submissionKey: NEW_KEY, values: null, result: null, progress: 0 });
      expect(emitted, at).toEqual([]);
      break;
    default:
      throw new Error(`${at}: an event the test does not know`);
  }
}

const model = createPathModel(candidateFormMachine, {
  inputs,
  // The upload's reports (candidate.progress / saved / failed) are ordinary events, offered while it runs.
  events,
  outputs: { validate: [undefined] },
  errors: {
    validate: validateErrors,
    // The upload could not even start.
    submitCandidate: [new TypeError("Failed to construct 'FormData'")],
  },
  // Every failure and every progress report, from every state it can happen in.
  edges: 'all',
  /*
   * A vertex is the state, the key, the messages shown and whether some of the upload went: what decides
   * what the form does next and what the user sees (a retry after each kind of failure, a failure half-way
   * through an upload, a submit after each message). The values, the record and how much was uploaded
   * only flow through, so they do not multiply the paths; `check` works out what
   * they must be from each path's own events, and the live context is compared on the kept part only.
   */
  serializeState: ({ value, context: { submissionKey, error, fieldErrors, progress } }) =>
    JSON.stringify({ value, submissionKey, error, fieldErrors, uploaded: progress > 0 }),
  compareContext: ({ submissionKey, error, fieldErrors }) => ({ submissionKey, error, fieldErrors }),
  describeEvent,
  check: checkCandidateForm,
});

describe('candidate form machine: model-based paths', () => {
  it('covers every state and every transition from both inputs', () => {
    model.assertCoverage();
    for (const [index] of inputs.entries()) {
      expect(model.paths.some((path) => path.inputIndex === index)).toBe(true);
    }
  });

  it('replays every failure, every progress report, a retry after each failure and a new form', () => {
    const trails = model.paths.map((path) => path.steps.map((step) => step.event));
    for (const error of uploadFailures) {
      expect(
        trails.some((trail) => trail.some((e) => e.type === 'candidate.failed' && e.error === error)),
      ).toBe(true);
    }
    for (const error of validateErrors) {
      expect(trails.some((trail) => trail.some((e) => e.type.includes('error') && e.error === error))).toBe(
        true,
      );
    }
    for (const report of progressReports) {
      expect(
        trails.some((trail) =>
          trail.some(
            (e) => e.type === 'candidate.progress' && e.loaded === report.loaded && e.total === report.total,
          ),
        ),
      ).toBe(true);
    }
    // A retry after a network failure and after a 500, and a save after a retry.
    for (const status of [0, 500]) {
      expect(
        trails.some((trail) =>
          trail.some(
            (e, n) =>
              e.type === 'candidate.failed' &&
              statusOf(e.error) === status &&
              trail[n + 1]?.type === 'candidate.retry',
          ),
        ),
        `a retry after ${status}`,
      ).toBe(true);
    }
    // A submit after candidate.new, so the new key is seen going out.
    expect(
      trails.some((trail) => {
        const renewed = trail.findIndex((e) => e.type === 'candidate.new');
        return renewed > 0 && trail.slice(renewed).some((e) => e.type === 'xstate.done.actor.validate');
      }),
    ).toBe(true);
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** What the fake upload sends back, in turn, for each attempt: progress reports, then the end. */
type Script = Array<
  Extract<CandidateFormEvent, { type: 'candidate.progress' | 'candidate.saved' | 'candidate.failed' }>
>;

/**
 * The form with the real shapes of its actors: a validator that refuses what the test says, and an upload
 * that, like the XMLHttpRequest one, reports through sendBack, one script per attempt.
 */
function candidateForm(
  input: CandidateFormInput,
  scripts: Script[],
  refuse: (values: FormValues) => unknown = () => null,
) {
  const sent: SubmitCandidateInput[] = [];
  const aborted: number[] = [];
  const actor = createActor(
    candidateFormMachine.provide({
      actors: {
        validate: fromPromise<void, FormValues>(async ({ input: values }) => {
          const refusal = refuse(values);
          if (refusal) throw refusal;
        }),
        submitCandidate: fromCallback<CandidateFormEvent, SubmitCandidateInput>(
          ({ input: upload, sendBack }) => {
            const attempt = sent.push(upload) - 1;
            const script = scripts[attempt] ?? [];
            // Like the browser: the reports arrive later, one task each.
            let timer: ReturnType<typeof setTimeout> | undefined;
            const next = (n: number) => {
              if (n >= script.length) return;
              timer = setTimeout(() => {
                sendBack(script[n]);
                next(n + 1);
              }, 0);
            };
            next(0);
            return () => {
              clearTimeout(timer);
              aborted.push(attempt);
            };
          },
        ),
      },
    }),
    { input },
  );
  const heard: NotifyEmitted[] = [];
  actor.on('notify', (notice) => heard.push(notice));
  const progress: number[] = [];
  actor.subscribe((snapshot) => {
    if (snapshot.matches('submitting') && progress[progress.length - 1] !== snapshot.context.progress) {
      progress.push(snapshot.context.progress);
    }
  });
  actor.start();
  return { actor, sent, aborted, heard, progress };
}

const offline = failure(0, 'The portal could not be reached. Check your connection and try again.');

describe('candidate form machine: examples', () => {
  it('a network failure keeps the form; the retry sends the same values and key, and is saved once', async () => {
    const { actor, sent, heard, progress } = candidateForm({ submissionKey: KEY }, [
      [
        { type: 'candidate.progress', loaded: 1024, total: 4096 },
        { type: 'candidate.failed', error: offline },
      ],
      [
        { type: 'candidate.progress', loaded: 2048, total: 4096 },
        { type: 'candidate.progress', loaded: 4096, total: 4096 },
        { type: 'candidate.saved', record, message: SAVED_MESSAGE },
      ],
    ]);
    actor.send({ type: 'candidate.submit', values: corrected });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context).toMatchObject({ values: corrected, error: offline.message, fieldErrors: {} });
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: offline.message }]);

    actor.send({ type: 'candidate.retry' });
    const saved = await waitFor(actor, (s) => s.matches('succeeded'));
    expect(sent).toEqual([
      { values: corrected, submissionKey: KEY, candidateId: null },
      { values: corrected, submissionKey: KEY, candidateId: null },
    ]);
    expect(saved.context.result).toBe(record);
    expect(heard[1]).toEqual({ type: 'notify', tone: 'success', message: SAVED_MESSAGE });
    // Each attempt's bar starts again from zero.
    expect(progress).toEqual([0, 0.25, 0, 0.5, 1]);
  });

  it('the browser’s check refuses first, and nothing is uploaded until it passes', async () => {
    const refusal = failure(422, 'Some fields need your attention.', {
      first_name: [CANDIDATE_MESSAGES.firstNameShort],
    });
    const { actor, sent, heard } = candidateForm(
      { submissionKey: KEY },
      [[{ type: 'candidate.saved', record, message: SAVED_MESSAGE }]],
      (values) => (String(values.first_name).length < 3 ? refusal : null),
    );
    actor.send({ type: 'candidate.submit', values: typed });
    const invalid = await waitFor(actor, (s) => s.matches('invalid'));
    expect(invalid.context.fieldErrors).toEqual({ first_name: [CANDIDATE_MESSAGES.firstNameShort] });
    expect(invalid.context.values).toBe(typed);
    expect(sent).toEqual([]);
    expect(heard).toEqual([]);

    actor.send({ type: 'candidate.submit', values: corrected });
    await waitFor(actor, (s) => s.matches('succeeded'));
    expect(sent.map((upload) => upload.values)).toEqual([corrected]);
  });

  it('a 422 from the server puts its messages beside the fields; the corrected form goes with the same key', async () => {
    const closed = failure(422, CANDIDATE_RULE_MESSAGES.indexingClosed, {
      course_header: [CANDIDATE_RULE_MESSAGES.indexingClosed],
    });
    const { actor, sent } = candidateForm({ submissionKey: KEY, candidateId: 42 }, [
      [{ type: 'candidate.failed', error: closed }],
      [{ type: 'candidate.saved', record, message: 'Candidate updated.' }],
    ]);
    actor.send({ type: 'candidate.submit', values: typed });
    const invalid = await waitFor(actor, (s) => s.matches('invalid'));
    expect(invalid.context).toMatchObject({
      fieldErrors: { course_header: [CANDIDATE_RULE_MESSAGES.indexingClosed] },
      error: CANDIDATE_RULE_MESSAGES.indexingClosed,
      values: typed,
    });
    // Retrying as it is is not offered: there is something to correct.
    actor.send({ type: 'candidate.retry' });
    expect(actor.getSnapshot().value).toBe('invalid');

    const next = { ...typed, course_header: 'B5' };
    actor.send({ type: 'candidate.submit', values: next });
    await waitFor(actor, (s) => s.matches('succeeded'));
    expect(sent).toEqual([
      { values: typed, submissionKey: KEY, candidateId: 42 },
      { values: next, submissionKey: KEY, candidateId: 42 },
    ]);
  });

  it('a new form after a success goes with the new key', async () => {
    const { actor, sent } = candidateForm({ submissionKey: KEY }, [
      [{ type: 'candidate.saved', record, message: SAVED_MESSAGE }],
      [{ type: 'candidate.saved', record, message: SAVED_MESSAGE }],
    ]);
    actor.send({ type: 'candidate.submit', values: corrected });
    await waitFor(actor, (s) => s.matches('succeeded'));
    actor.send({ type: 'candidate.new', submissionKey: NEW_KEY });
    expect(actor.getSnapshot().context).toMatchObject({ values: null, result: null, submissionKey: NEW_KEY });
    actor.send({ type: 'candidate.submit', values: typed });
    await waitFor(actor, (s) => s.matches('succeeded'));
    expect(sent.map((upload) => upload.submissionKey)).toEqual([KEY, NEW_KEY]);
  });

  it('cannot be submitted twice while it is checking or uploading', async () => {
    const { actor, sent } = candidateForm({ submissionKey: KEY }, [[]]);
    actor.send({ type: 'candidate.submit', values: typed });
    actor.send({ type: 'candidate.submit', values: corrected });
    await waitFor(actor, (s) => s.matches('submitting'));
    actor.send({ type: 'candidate.submit', values: corrected });
    actor.send({ type: 'candidate.retry' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(sent).toEqual([{ values: typed, submissionKey: KEY, candidateId: null }]);
  });

  it('leaving the page stops the upload', async () => {
    const { actor, aborted } = candidateForm({ submissionKey: KEY }, [[]]);
    actor.send({ type: 'candidate.submit', values: typed });
    await waitFor(actor, (s) => s.matches('submitting'));
    actor.stop();
    expect(aborted).toEqual([0]);
  });

  it('an upload that cannot start fails with a sentence and keeps the form, not a crash', async () => {
    // The machine's own default upload throws (it must be handed in): the form must survive it.
    const actor = createActor(
      candidateFormMachine.provide({ actors: { validate: fromPromise<void, FormValues>(async () => {}) } }),
      { input: { submissionKey: KEY } },
    );
    const heard: NotifyEmitted[] = [];
    actor.on('notify', (notice) => heard.push(notice));
    actor.start();
    actor.send({ type: 'candidate.submit', values: corrected });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.status).toBe('active');
    expect(failed.context).toMatchObject({ values: corrected, error: GENERIC, submissionKey: KEY });
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: GENERIC }]);
  });
});

describe('candidateForm machine: coverage file', () => {
  it('docs/statecharts/coverage/candidateForm.json is what its paths cover', () => matchCoverageFile(model));
});
