import { formatDateTime } from '../../contract/format';
import { eq, sql } from 'drizzle-orm';
import {
  PROVIDER_ALERT_MINUTES,
  PROVIDER_FAILURE_LABELS,
  type ProviderHealth,
  type ProviderFailureKind,
} from '../../contract/payments';
import { audit, systemActor } from '../audit';
import type { Database } from '../db/client';
import { notifications, providerHealth } from '../db/schema';
import { describeError, type Logger } from '../log';
import type { ProviderOutcome } from './provider';

/**
 * The payment provider's health, as the board sees it (issue 23): every call's outcome is recorded in
 * `provider_health` (since when it fails, why, its last status), and when the provider refuses our key,
 * or has failed for PROVIDER_ALERT_MINUTES, the board admins are told once: a notification, an audit
 * entry, and a banner on their payments pages (PAYMENT_ENDPOINTS.providerHealth) until the next call it
 * answers, which clears it (and says so). Each process writes only on a change it sees: a failure, or
 * the first answer after one; an answer while all is well is checked against the row at most every
 * CHECK_MS, so a failure another process recorded is cleared by this one's next answer too.
 */

export const PROVIDER_NOTIFICATION_KIND = 'payments.provider';
const CHECK_MS = 10_000;

const alerting = (kind: ProviderFailureKind, since: Date, now: Date) =>
  kind === 'key_refused' || now.getTime() - since.getTime() >= PROVIDER_ALERT_MINUTES * 60_000;

export interface HealthParts {
  db: () => Database;
  provider: 'paystack' | 'sandbox';
  now: () => Date;
  log: Pick<Logger, 'info' | 'error'>;
}

export function providerHealthRecorder({ db, provider, now, log }: HealthParts) {
  let failing = false;
  let checkedAt = 0;

  async function failed(kind: ProviderFailureKind, httpStatus: number | null) {
    const at = now();
    failing = true;
    await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(providerHealth)
        .values({ provider, failingSince: at, cause: kind, httpStatus, failures: 1, lastFailureAt: at })
        .onConflictDoUpdate({
          target: providerHealth.provider,
          set: {
            failingSince: sql`coalesce(${providerHealth.failingSince}, excluded.failing_since)`,
            cause: kind,
            httpStatus,
            failures: sql`${providerHealth.failures} + 1`,
            lastFailureAt: at,
            updatedAt: at,
          },
        })
        .returning();
      if (row.alertedAt || !alerting(kind, row.failingSince!, at)) return;
      // Told once, by whichever process gets here first.
      const [told] = await tx
        .update(providerHealth)
        .set({ alertedAt: at })
        .where(sql`${providerHealth.provider} = ${provider} and ${providerHealth.alertedAt} is null`)
        .returning({ provider: providerHealth.provider });
      if (!told) return;
      await tx.insert(notifications).values({
        kind: PROVIDER_NOTIFICATION_KIND,
        title:
          kind === 'key_refused'
            ? 'Payments stopped: the provider refuses our key'
            : 'Payments: the provider is failing',
        body: `Since ${formatDateTime(row.failingSince!)}, ${PROVIDER_FAILURE_LABELS[kind]}${httpStatus ? ` (HTTP ${httpStatus})` : ''}. Schools are told to try again later; payments made meanwhile are checked again when it answers.`,
      });
      await audit(tx, systemActor(), {
        action: 'payment.provider_failing',
        entityId: provider,
        after: { cause: kind, http_status: httpStatus, since: row.failingSince!.toISOString() },
      });
      log.error('payment.provider_alert', { provider, cause: kind, status: httpStatus });
    });
  }

  async function answered() {
    if (!failing && Date.now() - checkedAt < CHECK_MS) return;
    checkedAt = Date.now();
    failing = false;
    const at = now();
    await db().transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(providerHealth)
        .where(eq(providerHealth.provider, provider))
        .for('update');
      if (!row?.failingSince) return;
      await tx
        .update(providerHealth)
        .set({
          failingSince: null,
          cause: null,
          httpStatus: null,
          failures: 0,
          alertedAt: null,
          lastSuccessAt: at,
          updatedAt: at,
        })
        .where(eq(providerHealth.provider, provider));
      if (!row.alertedAt) return;
      await tx.insert(notifications).values({
        kind: PROVIDER_NOTIFICATION_KIND,
        title: 'Payments: the provider answers again',
        body: `The provider failed from ${formatDateTime(row.failingSince)} to ${formatDateTime(at)} (${PROVIDER_FAILURE_LABELS[row.cause!]}). It answers again.`,
      });
      await audit(tx, systemActor(), {
        action: 'payment.provider_recovered',
        entityId: provider,
        before: { cause: row.cause, since: row.failingSince.toISOString() },
        after: { at: at.toISOString() },
      });
      log.info('payment.provider_recovered', { provider, cause: row.cause });
    });
  }

  return {
    /** Records one call's outcome; its own failure is logged, never thrown at the caller. */
    async record(outcome: ProviderOutcome) {
      try {
        if (outcome.ok) await answered();
        else await failed(outcome.failure.kind, outcome.failure.detail.httpStatus);
      } catch (error) {
        log.error('payment.provider_health_failed', describeError(error));
      }
    },
  };
}

/** What the board's payments pages show: the provider's failure now, if any, and whether it alerts. */
export async function readProviderHealth(
  db: Database,
  provider: 'paystack' | 'sandbox',
  now: Date,
): Promise<ProviderHealth> {
  const [row] = await db.select().from(providerHealth).where(eq(providerHealth.provider, provider));
  if (!row?.failingSince || !row.cause) return { provider, failing: null, alert: false };
  return {
    provider,
    failing: {
      since: row.failingSince.toISOString(),
      kind: row.cause,
      label: PROVIDER_FAILURE_LABELS[row.cause],
      http_status: row.httpStatus,
    },
    alert: Boolean(row.alertedAt) || alerting(row.cause, row.failingSince, now),
  };
}
