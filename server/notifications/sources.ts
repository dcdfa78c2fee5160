import type { NotificationKind } from '../../contract/notifications';
import { audit, type Actor } from '../audit';
import type { Database } from '../db/client';
import { notifications } from '../db/schema';

/**
 * The board's notification sources (issue 26; the catalogue is NOTIFICATION_KINDS in
 * contract/notifications.ts): each source writes its notification here, in its own change's transaction,
 * so a change that rolls back tells the board nothing. `subject` is what the kind's link needs.
 */
export async function notifyBoard(
  tx: Database,
  actor: Actor,
  note: {
    kind: NotificationKind;
    title: string;
    body: string;
    schoolId: number | null;
    subject: string | number | null;
  },
): Promise<number> {
  const [row] = await tx
    .insert(notifications)
    .values({
      kind: note.kind,
      title: note.title,
      body: note.body,
      trainingSchoolId: note.schoolId,
      subject: note.subject === null ? null : String(note.subject),
      createdBy: actor.userId,
    })
    .returning({ id: notifications.id });
  await audit(tx, actor, {
    action: 'notification.created',
    entityId: row.id,
    after: { kind: note.kind, title: note.title, training_school_id: note.schoolId },
  });
  return row.id;
}
