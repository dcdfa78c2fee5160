/**
 * Registering many candidates at once (issue 22): ticked rows of Registered Candidates, or every verified
 * candidate not yet registered for the current diet. Each candidate goes through the same rules as one
 * row's toggle (the server's one registration function); the answer counts what was done and what was
 * refused, and why.
 */

/** The most candidates one request registers (ticked ids, or the verified candidates it picks). */
export const BULK_REGISTRATION_LIMIT = 1000;

/**
 * The body: either the ticked rows' ids, or `all_verified` with the code of the diet the page shows (it
 * must still be the current one), optionally narrowed to a course header and a year (the list's own
 * filters), so the button registers what the list shows.
 */
export type BulkRegistrationRequest =
  { candidate_ids: number[] } | { all_verified: true; diet: string; course_header?: string; year?: number };

/** Why a candidate of a bulk registration was refused (the rest of the request went on). */
export type BulkRefusal = 'not_verified' | 'sanctioned' | 'course_header_closed' | 'not_found';

/** Each refusal as the summary says it ('3 refused: 2 not verified by the board, 1 under sanction'). */
export const BULK_REFUSAL_LABELS: Record<BulkRefusal, string> = {
  not_verified: 'not verified by the board',
  sanctioned: 'under sanction',
  course_header_closed: 'registration closed for their course header',
  not_found: 'not found',
};

export interface BulkRegistrationRow {
  id: number;
  outcome: 'registered' | 'already_registered' | 'refused';
  /** Refused only: why, and the sentence the single toggle would have answered. */
  reason?: BulkRefusal;
  message?: string;
}

export interface BulkRegistrationResult {
  /** The diet registered for. */
  diet: string;
  registered: number;
  already_registered: number;
  /** Refusals grouped by reason, largest first. */
  refused: { reason: BulkRefusal; label: string; count: number }[];
  /** `all_verified`: verified candidates past the limit, left for another request. */
  left_over: number;
  /** Each candidate asked about, in id order. */
  rows: BulkRegistrationRow[];
}

export const BULK_REGISTRATION_MESSAGES = {
  chooseCandidates: 'Tick at least one candidate',
  tooMany: `At most ${BULK_REGISTRATION_LIMIT.toLocaleString('en-GB')} candidates at once`,
  oneWay: 'Send either the ticked candidates or all_verified with the diet, not both',
  dietChanged: (current: string, asked: string) =>
    `Registration is for ${current} now, not ${asked}: reload the page`,
} as const;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The answer in a sentence: '12 registered; 3 refused: 2 not verified by the board, 1 under sanction'. */
export function bulkRegistrationSummary(result: Omit<BulkRegistrationResult, 'rows' | 'diet'>): string {
  const done = [`${result.registered} registered`];
  if (result.already_registered) done.push(`${result.already_registered} already registered`);
  const refusedCount = result.refused.reduce((sum, refusal) => sum + refusal.count, 0);
  let text = done.join(', ');
  if (refusedCount) {
    text += `; ${refusedCount} refused: ${result.refused.map((r) => `${r.count} ${r.label}`).join(', ')}`;
  }
  if (result.left_over) {
    text += `. ${plural(result.left_over, 'more verified candidate was', 'more verified candidates were')} left for another press (at most ${BULK_REGISTRATION_LIMIT.toLocaleString('en-GB')} at once)`;
  }
  return text;
}
