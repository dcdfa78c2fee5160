import { eq, sql } from 'drizzle-orm';
import { SCHOOL_BROADCASTS_PAGE } from '../../contract/broadcasts';
import type { Database } from '../db/client';
import { broadcastMails } from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';

/**
 * The broadcasts' outbox (docs/decisions.md "Issue 26: broadcasts"): broadcast_mails rows written in
 * the transaction that sends or reminds, mailed here by the 'broadcast-mail' job. Safe with two workers,
 * two processes, a retry and a crash:
 * - each row is taken with `for update skip locked` in its own transaction, marked sent, mailed, and
 *   committed: another worker skips it while it is held and finds it sent after, so no row is mailed
 *   twice; a crash between the mail and the commit mails that one admin again (once too often rather
 *   than never, as the registration reminders);
 * - a mail that fails rolls its mark back: the row stays pending, its attempt is counted, and the run
 *   throws at its end so pg-boss retries the job (5 times, backing off); the cron sweep every five
 *   minutes takes what is left after that. A row failed MAX_ATTEMPTS times is left, and logged.
 * Rows of a withdrawn broadcast, or for an admin no longer active, are not mailed.
 * The mail names the broadcast and links back to the portal; it never carries the body's files.
 */

/** Rows one run mails at most (the next run, or the cron, takes the rest). */
const BATCH = 200;
const MAX_ATTEMPTS = 5;

interface PendingMail {
  id: number;
  round: number;
  broadcast_id: number;
  email: string;
  name: string;
  school: string;
  title: string;
  requires_acknowledgement: boolean;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function mailOf(row: PendingMail, publicUrl: string) {
  const link = `${publicUrl}${SCHOOL_BROADCASTS_PAGE}/${row.broadcast_id}`;
  const title = oneLine(row.title);
  const reminder = row.round > 0;
  return {
    to: row.email,
    kind: reminder ? ('broadcast reminder' as const) : ('broadcast' as const),
    subject: reminder ? `Reminder: please acknowledge "${title}"` : `A broadcast from the board: ${title}`,
    text: [
      `Dear ${row.name},`,
      reminder
        ? `The board is still waiting for ${row.school} to acknowledge its broadcast "${title}".`
        : `The board has sent ${row.school} a broadcast: "${title}".`,
      row.requires_acknowledgement && !reminder
        ? 'It asks your school to acknowledge it once you have read it.'
        : '',
      `Sign in to the portal to read it${reminder ? ' and acknowledge it' : ''}, with any files attached: ${link}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

export async function sendBroadcastMails({
  db,
  mailer,
  log,
  publicUrl,
}: {
  db: Database;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
}): Promise<{ sent: number; failed: number }> {
  let after = 0;
  let sent = 0;
  let failed = 0;
  for (let taken = 0; taken < BATCH; taken += 1) {
    let current: PendingMail | null = null;
    try {
      const done = await db.transaction(async (tx) => {
        const { rows } = (await tx.execute(sql`
          select m.id, m.round, m.broadcast_id, u.email, u.name, s.name as school, b.title,
                 b.requires_acknowledgement
          from broadcast_mails m
          join broadcasts b on b.id = m.broadcast_id
          join users u on u.id = m.user_id
          join training_schools s on s.id = m.training_school_id
          where m.sent_at is null and m.id > ${after} and m.attempts < ${MAX_ATTEMPTS}
            and b.withdrawn_at is null and u.active
          order by m.id
          limit 1
          for update of m skip locked`)) as unknown as { rows: PendingMail[] };
        current = rows[0] ?? null;
        if (!current) return false;
        after = current.id;
        await tx
          .update(broadcastMails)
          .set({ sentAt: sql`now()` })
          .where(eq(broadcastMails.id, current.id));
        await mailer.send(mailOf(current, publicUrl));
        return true;
      });
      if (!done) break;
      sent += 1;
    } catch (error) {
      if (!current) throw error;
      const row: PendingMail = current;
      failed += 1;
      await db
        .update(broadcastMails)
        .set({ attempts: sql`${broadcastMails.attempts} + 1`, lastError: String(error).slice(0, 500) })
        .where(eq(broadcastMails.id, row.id));
      log.error('broadcast.mail_failed', { mail: row.id, broadcast: row.broadcast_id, error: String(error) });
    }
  }
  if (sent) log.info('broadcast.mails_sent', { sent });
  // Thrown, so the queue retries the job: the failed rows are still pending.
  if (failed) throw new Error(`${failed} broadcast mail${failed === 1 ? '' : 's'} could not be sent`);
  return { sent, failed };
}
