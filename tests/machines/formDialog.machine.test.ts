import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import { PROFILE_MESSAGES } from '../../contract/profile';
import {
  formDialogMachine,
  type FormDialogEmitted,
  type FormDialogEvent,
  type FormDialogInput,
  type FormValues,
} from '../../machines/formDialog.machine';
import { createPathModel, matchCoverageFile, errorOf, outputOf, type ReplayStep } from './paths';

const GENERIC = 'Something went wrong. Please try again.';
const input: FormDialogInput = { successMessage: PROFILE_MESSAGES.updated };

/** What the user typed, a photo included (multipart forms send files as they are). */
const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'ada.jpg', { type: 'image/jpeg' });
const values: FormValues = { name: 'Ada Obi', email: 'ada@example.org', phone_number: '', photo };

/** What a dialog may be about: nothing (a new school), or a row (the school being edited). */
const school = { id: 7, code: 'SHT-IB', name: 'School of Health Technology, Ibadan' };

const events: FormDialogEvent[] = [
  { type: 'form.open' },
  { type: 'form.open', subject: school },
  { type: 'form.close' },
  { type: 'form.submit', values },
];

/** Each answer the server may give, and the toast it must make. */
const answers = [
  { output: { message: 'Profile saved.' }, toast: 'Profile saved.' },
  // The server said nothing of its own: the dialog's own sentence.
  { output: {}, toast: input.successMessage },
  { output: { message: '' }, toast: input.successMessage },
];

const failure = (status: number, message: string, fields: Record<string, string[]> = {}): ApiFailure => ({
  status,
  message,
  fields,
});

/** Each failure, the toast it must make, and the field messages that go beside the fields. */
const failures: Array<{ error: unknown; toast: string; fieldErrors: Record<string, string[]> }> = [
  {
    // A 422: the envelope's first message is the toast, every field's messages go beside it.
    error: failure(422, PROFILE_MESSAGES.emailTaken, {
      email: [PROFILE_MESSAGES.emailTaken],
      photo: [PROFILE_MESSAGES.photoTooLarge],
    }),
    toast: PROFILE_MESSAGES.emailTaken,
    fieldErrors: { email: [PROFILE_MESSAGES.emailTaken], photo: [PROFILE_MESSAGES.photoTooLarge] },
  },
  {
    error: failure(500, 'The portal answered 500. Please try again.'),
    toast: 'The portal answered 500. Please try again.',
    fieldErrors: {},
  },
  { error: failure(0, 'The network is unreachable.'), toast: 'The network is unreachable.', fieldErrors: {} },
  // Not an ApiFailure (a bug, a TypeError): still a sentence, never a crash.
  { error: new TypeError('Failed to fetch'), toast: GENERIC, fieldErrors: {} },
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b) && typeof a === typeof b;

function checkFormDialog(replayed: ReplayStep<typeof formDialogMachine>): void {
  const { step, snapshot, previous, calls, emitted, path } = replayed;
  const { context } = snapshot;
  const event = step.event;
  const at = `after ${event.type} in ${JSON.stringify(snapshot.value)}`;
  const pending = calls.filter((call) => call.status === 'pending');

  // Tags are exactly the states the views read them for.
  expect(snapshot.hasTag('open'), at).toBe(snapshot.matches('open'));
  expect(snapshot.hasTag('busy'), at).toBe(snapshot.matches({ open: 'submitting' }));
  // One request while busy, none otherwise (a second submit cannot start another).
  expect(pending.length, `${at}: requests in flight`).toBe(snapshot.hasTag('busy') ? 1 : 0);
  expect(context.successMessage, at).toBe(path.input.successMessage);
  // No field message beside a field while its new value is on its way.
  if (snapshot.hasTag('busy')) expect(context.fieldErrors, at).toEqual({});
  if (snapshot.hasTag('busy')) expect(context.error, at).toBeNull();

  // What the dialog is about is set by opening it, and kept until it is opened again.
  if (event.type === 'form.open') {
    expect(context.subject, at).toBe((event as { subject?: unknown }).subject ?? null);
  } else {
    expect(context.subject, at).toBe(previous?.context.subject ?? null);
  }

  switch (event.type) {
    case 'form.open':
      expect(snapshot.value, at).toEqual({ open: 'editing' });
      expect(context.fieldErrors, at).toEqual({});
      expect(context.error, at).toBeNull();
      expect(emitted, at).toEqual([]);
      break;
    case 'form.submit': {
      // What was typed goes to the server as it is: the same object, files included.
      const call = calls[calls.length - 1];
      expect(call).toMatchObject({ id: 'submit', src: 'submit', status: 'pending' });
      expect(call.input, at).toBe((event as Extract<FormDialogEvent, { type: 'form.submit' }>).values);
      expect((call.input as FormValues).photo, at).toBe(photo);
      expect(emitted, at).toEqual([]);
      break;
    }
    case 'xstate.done.actor.submit': {
      const answer = answers.find((candidate) => same(candidate.output, outputOf(event)));
      expect(answer, `${at}: a known answer`).toBeDefined();
      // Success closes the dialog (the form is reset), toasts, then says so for whoever listens.
      expect(snapshot.value, at).toBe('closed');
      expect(context.fieldErrors, at).toEqual({});
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'success', message: answer!.toast },
        { type: 'form.succeeded' },
      ] satisfies FormDialogEmitted[]);
      break;
    }
    case 'xstate.error.actor.submit': {
      const error = errorOf(event);
      const known = failures.find((candidate) => same(candidate.error, error) && candidate.error === error);
      expect(known, `${at}: a known failure`).toBeDefined();
      // Failure keeps the dialog open, so the form and what was typed stay as they were.
      expect(snapshot.value, at).toEqual({ open: 'editing' });
      expect(previous?.hasTag('open') && snapshot.hasTag('open'), at).toBe(true);
      expect(
        step.transitions.map((t) => t.label),
        `${at}: the dialog is not left`,
      ).toEqual(['#formDialog.open.submitting --error: submit--> #formDialog.open.editing']);
      expect(context.fieldErrors, at).toEqual(known!.fieldErrors);
      // The dialog says it too: the modal hides the toast from screen readers.
      expect(context.error, at).toBe(known!.toast);
      expect(emitted, at).toEqual([
        { type: 'notify', tone: 'error', message: known!.toast },
      ] satisfies FormDialogEmitted[]);
      break;
    }
    case 'form.close':
      expect(snapshot.value, at).toBe('closed');
      expect(emitted, at).toEqual([]);
      break;
  }
}

const model = createPathModel(formDialogMachine, {
  inputs: [input],
  events,
  outputs: { submit: answers.map(({ output }) => output) },
  errors: { submit: failures.map(({ error }) => error) },
  // Several answers end in the same state: replay each of them, and each failure, from every state.
  edges: 'all',
  check: checkFormDialog,
});

describe('form dialog machine: model-based paths', () => {
  it('covers every state and every transition', () => {
    model.assertCoverage();
  });

  it('replays every answer and every failure', () => {
    const replayed = model.paths.flatMap((path) => path.steps.map((step) => step.event));
    for (const { output } of answers) {
      expect(replayed.some((event) => event.type.includes('done') && same(event.output, output))).toBe(true);
    }
    for (const { error } of failures) {
      expect(replayed.some((event) => event.type.includes('error') && event.error === error)).toBe(true);
    }
  });

  it.each(model.paths.map((path) => [path.name, path] as const))('%s', async (_name, path) => {
    await model.replay(path);
  });
});

/** A dialog whose submit answers with the given results in turn (an Error or ApiFailure is thrown). */
function dialog(results: unknown[]) {
  const sent: FormValues[] = [];
  const actor = createActor(
    formDialogMachine.provide({
      actors: {
        submit: fromPromise<{ message?: string }, FormValues>(async ({ input: typed }) => {
          sent.push(typed);
          const result = results[sent.length - 1];
          if (result instanceof Error || (result as ApiFailure).status !== undefined) throw result;
          return result as { message?: string };
        }),
      },
    }),
    { input },
  );
  const heard: FormDialogEmitted[] = [];
  actor.on('*', (event) => heard.push(event));
  actor.start();
  return { actor, sent, heard };
}

describe('form dialog machine: examples', () => {
  it('a 422 keeps the dialog open with its field messages; the corrected form then succeeds', async () => {
    const rejected = failure(422, 'Enter a valid email address', { email: ['Enter a valid email address'] });
    const { actor, sent, heard } = dialog([rejected, { message: 'Your profile has been updated.' }]);
    const typed = Object.freeze({ name: 'Ada Obi', email: 'ada@', photo: null });
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.submit', values: typed });
    const failed = await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    expect(failed.context.fieldErrors).toEqual({ email: ['Enter a valid email address'] });
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: 'Enter a valid email address' }]);
    expect(sent[0]).toBe(typed);
    expect(typed).toEqual({ name: 'Ada Obi', email: 'ada@', photo: null });

    actor.send({ type: 'form.submit', values: { ...typed, email: 'ada@example.org' } });
    // While the corrected form is on its way, the old message is gone.
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    await waitFor(actor, (s) => s.matches('closed'));
    expect(heard.slice(1)).toEqual([
      { type: 'notify', tone: 'success', message: 'Your profile has been updated.' },
      { type: 'form.succeeded' },
    ]);
    expect(sent[1].email).toBe('ada@example.org');
  });

  it('toasts the dialog’s own sentence when the server answers without one', async () => {
    const { actor, heard } = dialog([{}]);
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.submit', values });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(heard).toEqual([
      { type: 'notify', tone: 'success', message: PROFILE_MESSAGES.updated },
      { type: 'form.succeeded' },
    ]);
  });

  it('cannot be closed or submitted twice while it is sending', () => {
    const { actor, sent } = dialog([new Promise(() => {})]);
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.submit', values });
    actor.send({ type: 'form.submit', values });
    actor.send({ type: 'form.close' });
    expect(actor.getSnapshot().value).toEqual({ open: 'submitting' });
    expect(sent).toHaveLength(1);
  });

  it('reopening after a failure shows a clean form', async () => {
    const { actor } = dialog([failure(422, 'Enter a subject', { subject: ['Enter a subject'] })]);
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.submit', values: { subject: '' } });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    actor.send({ type: 'form.close' });
    actor.send({ type: 'form.open' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
  });

  it('without its submit actor the dialog fails with a sentence, not a crash', async () => {
    const actor = createActor(formDialogMachine, { input });
    const heard: FormDialogEmitted[] = [];
    actor.on('notify', (event) => heard.push(event));
    actor.start();
    actor.send({ type: 'form.open' });
    actor.send({ type: 'form.submit', values });
    await waitFor(actor, (s) => s.matches({ open: 'editing' }));
    expect(heard).toEqual([{ type: 'notify', tone: 'error', message: GENERIC }]);
  });
});

describe('formDialog machine: coverage file', () => {
  it('docs/statecharts/coverage/formDialog.json is what its paths cover', () => matchCoverageFile(model));
});
