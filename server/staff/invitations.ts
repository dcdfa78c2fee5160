import { and, asc, eq, isNull } from 'drizzle-orm';
import { RESET_PASSWORD_PAGE } from '../../contract/paths';
import { INVITATION_TTL_HOURS } from '../../contract/staff';
import { audit, systemActor } from '../audit';
import type { Database } from '../db/client';
import { staffInvitations, users } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { issueResetCode } from '../schools/accounts';

/**
 * The outbox of board-staff invitations (job 'staff-invitation', server/jobs/index.ts). Each waiting
 * row is taken in its own transaction, locked (`skip locked`: a second worker takes another, or
 * nothing), given a fresh reset code with the invitation's longer expiry, mailed, and marked mailed
 * before the commit: a row is mailed once, however many workers run. A send that fails rolls the
 * transaction back (the code too), and the job's retry mails it. A crash between the send and the
 * commit mails it again: once too often rather than never. A row whose admin no longer waits for it
 * (joined, or suspended meanwhile) is marked done unmailed.
 */

export interface InvitationPost {
  db: Database;
  mailer: Mailer;
  publicUrl: string;
}

/** The link of the mail: the reset page, with the address and the code in the fragment (which no
 * browser sends to a server, so it reaches no request log). */
const invitationLink = (publicUrl: string, email: string, code: string) =>
  `${publicUrl}${RESET_PASSWORD_PAGE}#${new URLSearchParams({ invitation: '1', email, code }).toString()}`;

export async function mailWaitingInvitations(
  post: InvitationPost,
): Promise<{ mailed: number; dropped: number }> {
  let mailed = 0;
  let dropped = 0;
  for (;;) {
    const outcome = await post.db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          id: staffInvitations.id,
          userId: staffInvitations.userId,
          invitedBy: staffInvitations.invitedBy,
          email: users.email,
          name: users.name,
          active: users.active,
          joinedAt: users.joinedAt,
        })
        .from(staffInvitations)
        .innerJoin(users, eq(users.id, staffInvitations.userId))
        .where(isNull(staffInvitations.mailedAt))
        .orderBy(asc(staffInvitations.id))
        .limit(1)
        .for('update', { of: staffInvitations, skipLocked: true });
      if (!row) return 'none' as const;
      const done = () =>
        tx
          .update(staffInvitations)
          .set({ mailedAt: new Date() })
          .where(and(eq(staffInvitations.id, row.id), isNull(staffInvitations.mailedAt)));
      if (!row.active || row.joinedAt !== null) {
        await done();
        return 'dropped' as const;
      }
      const { code, resetId } = await issueResetCode(tx, row.userId, row.invitedBy, INVITATION_TTL_HOURS);
      await done();
      await audit(tx, systemActor(), {
        action: 'staff.invitation_mailed',
        entityId: row.userId,
        after: { invitation_id: row.id, reset_id: resetId },
      });
      await post.mailer.send({
        to: row.email,
        kind: 'board invitation',
        subject: 'You are invited to the examinations board portal',
        text: [
          `Hello ${row.name},`,
          '',
          'You have been added as a board admin on the examinations board portal.',
          'Set your password by opening this link, then sign in with this email address:',
          '',
          invitationLink(post.publicUrl, row.email, code),
          '',
          `The link works once, for ${INVITATION_TTL_HOURS} hours. If it has expired, ask a board admin`,
          'to send the invitation again.',
          '',
          'If you did not expect this email, tell the examinations board.',
        ].join('\n'),
      });
      return 'mailed' as const;
    });
    if (outcome === 'none') return { mailed, dropped };
    if (outcome === 'mailed') mailed += 1;
    else dropped += 1;
  }
}
