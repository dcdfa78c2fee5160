import { systemActor } from '../audit';
import { ProviderFailure } from '../errors';
import { RunLater } from '../jobs/handle';
import { settle, type SettleParts } from './settle';

/**
 * The settle job a webhook queues (server/jobs/index.ts 'payment-settle'): the same settle as the
 * browser's verify. When the provider fails, it is asked again later as its failure says: a rate limit
 * after its Retry-After (an hour at most), an error, a page or a timeout after a backoff (30 s, doubling, up to 30 min),
 * SETTLE_DEFERRALS times; a refused key is not asked again by this job (a person must set the key),
 * nor is anything past the deferrals: the re-query job (every 5 minutes) goes on asking about every
 * payment still open.
 */

export interface SettleJobData {
  reference: string;
  /** How many times the provider's failure has put this settle off. */
  attempt?: number;
}

/** The settle job's key: one queued a reference (the queue's 'short' policy). */
export const settleKey = (reference: string) => `settle:${reference}`;
const SETTLE_DEFERRALS = 6;

/** Seconds until the next try: the backoff, or the provider's Retry-After when longer (an hour at most). */
const deferral = (attempt: number, retryAfterSeconds: number | null) =>
  Math.min(3600, Math.max(retryAfterSeconds ?? 0, Math.min(1800, 30 * 2 ** attempt)));

export async function settleJob(parts: SettleParts, data: SettleJobData) {
  try {
    await settle(parts, systemActor(), data.reference);
  } catch (error) {
    if (!(error instanceof ProviderFailure)) throw error;
    const attempt = data.attempt ?? 0;
    if (!error.retryable || attempt >= SETTLE_DEFERRALS) {
      parts.log?.error('payment.settle_left_to_requery', { cause: error.kind, attempt });
      return;
    }
    const seconds = deferral(attempt, error.detail.retryAfterSeconds);
    throw new RunLater(
      seconds,
      { reference: data.reference, attempt: attempt + 1 },
      {
        singletonKey: settleKey(data.reference),
      },
    );
  }
}
