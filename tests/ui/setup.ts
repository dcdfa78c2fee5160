import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, inject, vi } from 'vitest';

afterEach(() => cleanup());

// The API client reads its base URL when it loads: the portal's, before any test imports the app.
vi.stubEnv('VITE_API_URL', inject('portalUrl'));

// jsdom has no object URLs; the forms ask for one to preview a chosen image (Chromium shows it in e2e).
URL.createObjectURL ??= () => `blob:http://127.0.0.1/${crypto.randomUUID()}`;
URL.revokeObjectURL ??= () => undefined;

// jsdom has no media queries; chartist asks for one as it draws the Dashboard's charts, which a test that
// lands on the Dashboard now loads at once (Chromium draws them in e2e): no query matches here.
window.matchMedia ??= (media: string) =>
  ({
    matches: false,
    media,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

// user-event's upload can only replace an input's `files` property, which jsdom's FormData(form) does not
// read (testing-library/user-event#1109): read the files the way a browser's form data set does.
class FormDataWithChosenFiles extends FormData {
  constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
    super(form, submitter);
    form?.querySelectorAll<HTMLInputElement>('input[type=file][name]').forEach((input) => {
      if (!input.files?.length) return;
      this.delete(input.name);
      for (const file of input.files) this.append(input.name, file);
    });
  }
}
globalThis.FormData = FormDataWithChosenFiles;
