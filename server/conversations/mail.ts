import { and, asc, eq, isNull } from 'drizzle-orm';
import { schoolConversationPath } from '../../contract/notifications';
import type { Database } from '../db/client';
import { conversationMails, conversationMessages, conversations } from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';

/** Mails a run sends at most; the rest wait for the next run (the job is woken by every answer, and swept every 5 minutes). */
const MAILS_A_RUN = 100;

/**
 * Sends the outbox of the board's answers (conversation_mails): one row a transaction, taken with
 * `for update skip locked` (a second worker, in this process or another, takes another row or none),
 * marked mailed and mailed in that transaction. A failed send rolls its mark back and the job's retry
 * sends it; a sent mail is committed before the next row is taken, so a retry never sends it again. The
 * mail says which conversation was answered and links to it in the portal: no answer text, no tokens.
 */
export async function mailConversationAnswers({
  db,
  mailer,
  log,
  publicUrl,
}: {
  db: Database;
  mailer: Mailer;
  log: Logger;
  publicUrl: string;
}): Promise<number> {
  let sent = 0;
  while (sent < MAILS_A_RUN) {
    const done = await db.transaction(async (tx) => {
      const [due] = await tx
        .select({
          id: conversationMails.id,
          to: conversationMails.toEmail,
          conversationId: conversations.id,
          subject: conversations.subject,
        })
        .from(conversationMails)
        .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMails.messageId))
        .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
        .where(isNull(conversationMails.mailedAt))
        .orderBy(asc(conversationMails.createdAt), asc(conversationMails.id))
        .limit(1)
        .for('update', { of: conversationMails, skipLocked: true });
      if (!due) return false;
      const [marked] = await tx
        .update(conversationMails)
        .set({ mailedAt: new Date() })
        .where(and(eq(conversationMails.id, due.id), isNull(conversationMails.mailedAt)))
        .returning({ id: conversationMails.id });
      if (!marked) return true;
      const link = new URL(schoolConversationPath(due.conversationId), publicUrl).toString();
      await mailer.send({
        to: due.to,
        kind: 'conversation answer',
        subject: `The board has answered: ${due.subject}`,
        text: [
          `The board has answered your school's message "${due.subject}".`,
          `Sign in to the portal to read it: ${link}`,
        ].join('\n\n'),
      });
      return true;
    });
    if (!done) break;
    sent += 1;
  }
  if (sent) log.info('conversation.answers_mailed', { mails: sent });
  return sent;
}
