import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { VALID_CANDIDATE } from '../fixtures/candidate';
import { pngBytes } from './support';

/** Setup for the offender and resit specs: candidates indexed through the API, as a script would. */

/** Letters only (the form's names take them), different on every run against the same data directory. */
export function uniqueLetters(): string {
  let n = Date.now() * 1000 + Math.floor(Math.random() * 1000);
  let out = '';
  while (n > 0) {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  }
  return out;
}

/** Indexes a candidate (multipart, as the index form sends it) and answers their index number. */
export async function indexCandidate(
  request: APIRequestContext,
  adminToken: string,
  person: { first_name: string; last_name: string; school_code: string },
  { verified = false }: { verified?: boolean } = {},
): Promise<string> {
  const response = await request.post('/api/admin/candidates', {
    headers: { Authorization: `Bearer ${adminToken}` },
    multipart: {
      ...VALID_CANDIDATE,
      // The specs find rows by first and last name.
      middle_name: '',
      ...person,
      photo: { name: 'photo.png', mimeType: 'image/png', buffer: pngBytes() },
    },
  });
  expect(response.status()).toBe(200);
  const { id, candidate_index } = (await response.json()).data as { id: number; candidate_index: string };
  // The board's check of the documents, which registration needs.
  if (verified) {
    const verification = await request.post(`/api/admin/candidates/${id}/verification`, {
      headers: { Authorization: `Bearer ${adminToken}` },
      data: { verified: true },
    });
    expect(verification.status()).toBe(200);
  }
  return candidate_index;
}

/** The board's today (Lagos), `days` on, as YYYY-MM-DD. */
export function boardDay(days = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Lagos' }).format(new Date());
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * Waits until no list is fetching: a search keeps the old rows on screen until the new page comes, and a
 * row changed before then is replaced by the new page's row (with its own state).
 */
export async function listSettled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}
