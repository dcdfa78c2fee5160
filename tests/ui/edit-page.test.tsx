// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CANDIDATE_OUTCOME_MESSAGES } from '../../contract/candidates';
import { signedInAsAdmin, renderApp } from './app';

/**
 * The edit page of a candidate that does not exist, in the real App against a real portal: it says so
 * after one request, and asks no more (issue 9: it used to show "Loading…" for ever while asking about
 * 135 times a second).
 */

beforeEach(signedInAsAdmin);
afterEach(() => vi.restoreAllMocks());

describe('the edit page of an unknown candidate', () => {
  it('says there is no such candidate after one request, and asks no more', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const asked = () =>
      fetchSpy.mock.calls.filter(([input]) =>
        String(input instanceof Request ? input.url : input).includes('/candidates/987654'),
      ).length;
    await renderApp('/candidate/edit-candidate?id=987654');

    // Looked for again at each try: while the shell settles, Suspense may hide what is shown for a moment.
    await waitFor(() => expect(screen.getByText(CANDIDATE_OUTCOME_MESSAGES.notFound)).toBeVisible(), {
      timeout: 10_000,
    });
    // Time for a loop to show itself, had the failure been forgotten at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(asked()).toBe(1);
  });
});
