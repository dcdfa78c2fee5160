import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { and, asc, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  BROADCAST_LIMITS as L,
  BROADCAST_MESSAGES as M,
  type AudienceChoices,
  type BroadcastAttachment,
  type BroadcastDetail,
  type BroadcastSummary,
  type SchoolBroadcast,
} from '../../contract/broadcasts';
import type { BroadcastInput } from '../../contract/broadcasts.validators';
import type { FieldMessages } from '../../contract/envelope';
import { INPUT_MESSAGES, isReadable, MAX_ID } from '../../contract/input';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import {
  broadcastAttachments,
  broadcastMails,
  broadcastRecipients,
  broadcasts,
  candidates,
  courseHeaders,
  files,
  trainingSchools,
  users,
} from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { notifyBoard } from '../notifications/sources';
import { removeFiles } from '../candidates/uploads';
import { newKey, type WithStorage } from '../storage/storage';
import { checkUpload, IMAGE_TYPES, type Upload, type UploadRule } from '../storage/uploads';

/**
 * Broadcasts (issue 26; docs/decisions.md "Issue 26: broadcasts"). The board sends one to an audience,
 * which is resolved here, when it is sent, into the schools it names then (broadcast_recipients): a
 * school added, suspended or moved to another state afterwards neither joins nor leaves it. Each
 * addressed school's active admins are mailed through the outbox (broadcast_mails, mailed by the
 * 'broadcast-mail' job: ./outbox.ts), a link back to the portal and never the files.
 */

export const BROADCAST_FILE_KIND = 'broadcast_attachment';
const BROADCAST_FOLDER = 'broadcasts';

/** PDFs and images, checked by their content (the candidate uploads' check, server/storage/uploads.ts). */
const ATTACHMENT_RULE: UploadRule = {
  types: { ...IMAGE_TYPES, 'application/pdf': 'pdf' },
  tooLarge: M.fileTooLarge,
  notAccepted: M.fileNotAccepted,
};

export interface Attachment {
  upload: Upload;
  name: string;
}

/** A file's name as it is shown: control characters and path parts gone, never empty. */
function displayName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  return base.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim() || 'attachment';
}

/**
 * The form's files (`attachments`, given up to five times): each checked by size and content; every
 * problem as a field message of `attachments.<n>` (n from 0, in the order sent). Text sent in the file
 * field is ignored, never read as a path.
 */
export async function checkAttachments(
  value: unknown,
): Promise<{ attachments: Attachment[]; fields: FieldMessages }> {
  const given = (Array.isArray(value) ? value : [value]).filter(
    (item): item is File => item instanceof File && item.size > 0,
  );
  const fields: FieldMessages = {};
  if (given.length > L.attachmentsMax) return { attachments: [], fields: { attachments: [M.tooManyFiles] } };
  const attachments: Attachment[] = [];
  await Promise.all(
    given.map(async (file, index) => {
      if (!isReadable(file.name)) return (fields[`attachments.${index}`] = [INPUT_MESSAGES.unreadable]);
      const name = displayName(file.name);
      if (name.length > L.fileNameMax) return (fields[`attachments.${index}`] = [M.fileNameTooLong]);
      const outcome = await checkUpload(file, ATTACHMENT_RULE);
      if (typeof outcome === 'string') return (fields[`attachments.${index}`] = [outcome]);
      attachments[index] = { upload: outcome, name };
    }),
  );
  return { attachments: attachments.filter(Boolean), fields };
}

type Criteria =
  | { kind: 'all' }
  | { kind: 'schools'; school_ids: number[] }
  | { kind: 'state'; state: string }
  | { kind: 'course_header'; course_header_id: number }
  | { kind: 'status'; status: string };

function criteriaOf(input: BroadcastInput): Criteria {
  switch (input.audience) {
    case 'schools': {
      const ids = [
        ...new Set(
          (input.school_ids ?? '')
            .split(/[\s,]+/)
            .filter(Boolean)
            .map(Number),
        ),
      ];
      if (ids.length > L.schoolsMax) throw new Invalid({ school_ids: [M.tooLong] });
      // Past the largest id no school has it (and the database would refuse the number itself).
      if (ids.some((id) => id > MAX_ID)) throw new Invalid({ school_ids: [M.unknownSchool] });
      return { kind: 'schools', school_ids: ids };
    }
    case 'state':
      return { kind: 'state', state: input.state! };
    case 'course_header': {
      const id = Number(input.course_header_id);
      if (id > MAX_ID) throw new Invalid({ course_header_id: [M.unknownCourseHeader] });
      return { kind: 'course_header', course_header_id: id };
    }
    case 'status':
      return { kind: 'status', status: input.status! };
    default:
      return { kind: 'all' };
  }
}

/**
 * The schools an audience names now, and the audience in words. Refuses what names no school (or a
 * school or course header that does not exist) with the field's message.
 */
async function resolveAudience(
  tx: Database,
  criteria: Criteria,
): Promise<{ ids: number[]; description: string }> {
  const schoolIds = async (where?: SQL) =>
    (await tx.select({ id: trainingSchools.id }).from(trainingSchools).where(where)).map((row) => row.id);
  let ids: number[];
  let description: string;
  switch (criteria.kind) {
    case 'all':
      ids = await schoolIds();
      description = 'All schools';
      break;
    case 'schools':
      ids = await schoolIds(inArray(trainingSchools.id, criteria.school_ids));
      if (ids.length !== criteria.school_ids.length) throw new Invalid({ school_ids: [M.unknownSchool] });
      description = ids.length === 1 ? '1 chosen school' : `${ids.length} chosen schools`;
      break;
    case 'state':
      ids = await schoolIds(sql`lower(trim(${trainingSchools.state})) = lower(${criteria.state})`);
      description = `Schools in ${criteria.state}`;
      break;
    case 'course_header': {
      const [header] = await tx
        .select({ code: courseHeaders.code })
        .from(courseHeaders)
        .where(eq(courseHeaders.id, criteria.course_header_id));
      if (!header) throw new Invalid({ course_header_id: [M.unknownCourseHeader] });
      ids = (
        await tx
          .selectDistinct({ id: candidates.trainingSchoolId })
          .from(candidates)
          .where(eq(candidates.courseHeaderId, criteria.course_header_id))
      ).map((row) => row.id);
      description = `Schools with candidates under ${header.code}`;
      break;
    }
    case 'status':
      ids = await schoolIds(eq(trainingSchools.status, criteria.status as 'active'));
      description = criteria.status === 'active' ? 'Active schools' : 'Suspended schools';
      break;
  }
  if (!ids.length) throw new Invalid({ audience: [M.emptyAudience] });
  return { ids, description };
}

/** Queues a round of mail (0: the broadcast, n: the nth reminder) to the active admins of these schools. */
async function queueMails(tx: Database, broadcastId: number, round: number, onlyUnacknowledged: boolean) {
  const { rows } = (await tx.execute(sql`
    insert into ${broadcastMails} (broadcast_id, training_school_id, user_id, round)
    select r.broadcast_id, r.training_school_id, u.id, ${round}::smallint
    from ${broadcastRecipients} r
    join ${users} u on u.training_school_id = r.training_school_id and u.role = 'school_admin' and u.active
    where r.broadcast_id = ${broadcastId} ${onlyUnacknowledged ? sql`and r.acknowledged_at is null` : sql``}
    on conflict do nothing
    returning id`)) as unknown as { rows: unknown[] };
  return rows.length;
}

/**
 * Sends a broadcast: the files stored first (a transaction cannot span the storage), then in one
 * transaction the audience resolved, the broadcast, its files, its schools and its mail recorded, and
 * the audit entry; the files are removed again if that fails. The caller wakes the mail job after.
 */
export async function sendBroadcast(
  { db, storage, log }: WithStorage,
  actor: Actor,
  input: BroadcastInput,
  attachments: Attachment[],
): Promise<BroadcastSummary> {
  const userId = userOf(actor);
  const criteria = criteriaOf(input);
  const stored = attachments.map((attachment) => ({
    ...attachment,
    key: newKey(BROADCAST_FOLDER, attachment.upload.extension),
  }));
  const keys = stored.map((file) => file.key);
  try {
    await Promise.all(
      stored.map((file) => storage.put(file.key, file.upload.bytes, file.upload.contentType)),
    );
    return await db.transaction(async (tx) => {
      const audience = await resolveAudience(tx, criteria);
      const [row] = await tx
        .insert(broadcasts)
        .values({
          title: input.title,
          body: input.body,
          audience: { kind: criteria.kind, description: audience.description, criteria },
          requiresAcknowledgement: input.requires_acknowledgement ?? false,
          createdBy: userId,
        })
        .returning({ id: broadcasts.id });
      for (const [position, file] of stored.entries()) {
        const [saved] = await tx
          .insert(files)
          .values({
            key: file.key,
            kind: BROADCAST_FILE_KIND,
            ownerId: userId,
            contentType: file.upload.contentType,
            size: file.upload.size,
          })
          .returning({ id: files.id });
        await tx
          .insert(broadcastAttachments)
          .values({ broadcastId: row.id, fileId: saved.id, name: file.name, position });
      }
      await tx
        .insert(broadcastRecipients)
        .values(audience.ids.map((trainingSchoolId) => ({ broadcastId: row.id, trainingSchoolId })));
      const mails = await queueMails(tx, row.id, 0, false);
      await audit(tx, actor, {
        action: 'broadcast.sent',
        entityId: row.id,
        after: {
          title: input.title,
          audience: criteria,
          schools: audience.ids.length,
          mails,
          requires_acknowledgement: input.requires_acknowledgement ?? false,
          attachments: stored.map((file) => file.name),
        },
      });
      const [summary] = await summaries(tx, eq(broadcasts.id, row.id));
      return summary;
    });
  } catch (error) {
    await removeFiles(storage, log, keys);
    throw error;
  }
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The board's summaries of the broadcasts matching `where`, newest first. */
async function summaries(tx: Database, where?: SQL, limit = 200): Promise<BroadcastSummary[]> {
  const rows = await tx
    .select({
      id: broadcasts.id,
      title: broadcasts.title,
      audience: broadcasts.audience,
      requiresAcknowledgement: broadcasts.requiresAcknowledgement,
      createdAt: broadcasts.createdAt,
      withdrawnAt: broadcasts.withdrawnAt,
      sentBy: users.name,
      schools: sql<number>`(select count(*)::int from ${broadcastRecipients} r where r.broadcast_id = ${broadcasts.id})`,
      read: sql<number>`(select count(r.read_at)::int from ${broadcastRecipients} r where r.broadcast_id = ${broadcasts.id})`,
      acknowledged: sql<number>`(select count(r.acknowledged_at)::int from ${broadcastRecipients} r where r.broadcast_id = ${broadcasts.id})`,
      attachments: sql<number>`(select count(*)::int from ${broadcastAttachments} a where a.broadcast_id = ${broadcasts.id})`,
    })
    .from(broadcasts)
    .leftJoin(users, eq(users.id, broadcasts.createdBy))
    .where(where)
    .orderBy(desc(broadcasts.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    audience: { kind: row.audience.kind, description: row.audience.description },
    requires_acknowledgement: row.requiresAcknowledgement,
    sent_at: iso(row.createdAt)!,
    sent_by: row.sentBy,
    withdrawn_at: iso(row.withdrawnAt),
    schools: Number(row.schools),
    read: Number(row.read),
    acknowledged: Number(row.acknowledged),
    attachments: Number(row.attachments),
  }));
}

/** The broadcasts sent, newest first: the latest 200 (a board sends a few a week). */
export const sentBroadcasts = (db: Database) => summaries(db);

async function attachmentsOf(
  db: Database,
  broadcastIds: number[],
): Promise<Map<number, BroadcastAttachment[]>> {
  const found = new Map<number, BroadcastAttachment[]>();
  if (!broadcastIds.length) return found;
  const rows = await db
    .select({
      broadcastId: broadcastAttachments.broadcastId,
      id: broadcastAttachments.id,
      name: broadcastAttachments.name,
      contentType: files.contentType,
      size: files.size,
    })
    .from(broadcastAttachments)
    .innerJoin(files, eq(files.id, broadcastAttachments.fileId))
    .where(inArray(broadcastAttachments.broadcastId, broadcastIds))
    .orderBy(asc(broadcastAttachments.position));
  for (const row of rows) {
    const list = found.get(row.broadcastId) ?? [];
    list.push({ id: row.id, name: row.name, content_type: row.contentType, size: row.size });
    found.set(row.broadcastId, list);
  }
  return found;
}

/** Whether a reminder may go now by the limits (the remind itself checks them again, in one statement). */
const remindAllowed = (row: { reminders: number; lastRemindedAt: Date | null }, now: Date) =>
  row.reminders < L.remindersMax &&
  (!row.lastRemindedAt || now.getTime() - row.lastRemindedAt.getTime() >= L.reminderHours * 3600_000);

/** One broadcast as the board sees it, with each school's state. */
export async function broadcastDetail(db: Database, id: number): Promise<BroadcastDetail> {
  const [summary] = await summaries(db, eq(broadcasts.id, id));
  if (!summary) throw new NotFound(M.notFound);
  const [row] = await db
    .select({
      body: broadcasts.body,
      reminders: broadcasts.reminders,
      lastRemindedAt: broadcasts.lastRemindedAt,
    })
    .from(broadcasts)
    .where(eq(broadcasts.id, id));
  const recipients = await db
    .select({
      id: trainingSchools.id,
      code: trainingSchools.code,
      name: trainingSchools.name,
      state: trainingSchools.state,
      readAt: broadcastRecipients.readAt,
      acknowledgedAt: broadcastRecipients.acknowledgedAt,
    })
    .from(broadcastRecipients)
    .innerJoin(trainingSchools, eq(trainingSchools.id, broadcastRecipients.trainingSchoolId))
    .where(eq(broadcastRecipients.broadcastId, id))
    .orderBy(asc(trainingSchools.name));
  const outstanding = summary.schools - summary.acknowledged;
  return {
    ...summary,
    body: row.body,
    attachment_list: (await attachmentsOf(db, [id])).get(id) ?? [],
    recipients: recipients.map((school) => ({
      school: { id: school.id, code: school.code, name: school.name, state: school.state },
      read_at: iso(school.readAt),
      acknowledged_at: iso(school.acknowledgedAt),
    })),
    reminders: row.reminders,
    last_reminded_at: iso(row.lastRemindedAt),
    can_remind:
      summary.requires_acknowledgement &&
      !summary.withdrawn_at &&
      outstanding > 0 &&
      remindAllowed({ reminders: row.reminders, lastRemindedAt: row.lastRemindedAt }, new Date()),
  };
}

/**
 * Reminds the schools that have not acknowledged: a mail round to their admins through the outbox.
 * Limited to BROADCAST_LIMITS.remindersMax, at least reminderHours apart, checked and counted by one
 * statement (the row's update), so a burst of requests makes one reminder. Audited.
 */
export async function remindBroadcast(tx: Database, actor: Actor, id: number): Promise<{ schools: number }> {
  const [found] = await tx
    .select({
      withdrawnAt: broadcasts.withdrawnAt,
      requiresAcknowledgement: broadcasts.requiresAcknowledgement,
    })
    .from(broadcasts)
    .where(eq(broadcasts.id, id));
  if (!found) throw new NotFound(M.notFound);
  if (found.withdrawnAt) throw new Refused(409, M.alreadyWithdrawn);
  if (!found.requiresAcknowledgement) throw new Refused(409, M.noAcknowledgementAsked);
  const [counted] = await tx
    .update(broadcasts)
    .set({ reminders: sql`${broadcasts.reminders} + 1`, lastRemindedAt: sql`now()` })
    .where(
      and(
        eq(broadcasts.id, id),
        sql`${broadcasts.reminders} < ${L.remindersMax}`,
        sql`(${broadcasts.lastRemindedAt} is null or ${broadcasts.lastRemindedAt} <= now() - make_interval(hours => ${L.reminderHours}))`,
      ),
    )
    .returning({ round: broadcasts.reminders });
  if (!counted) throw new Refused(429, M.remindLimit);
  const [{ schools }] = await tx
    .select({ schools: count() })
    .from(broadcastRecipients)
    .where(and(eq(broadcastRecipients.broadcastId, id), isNull(broadcastRecipients.acknowledgedAt)));
  // Thrown, so the count taken above is given back with the rest of the transaction.
  if (!schools) throw new Refused(409, M.nothingToRemind);
  const mails = await queueMails(tx, id, counted.round, true);
  await audit(tx, actor, {
    action: 'broadcast.reminded',
    entityId: id,
    after: { round: counted.round, schools, mails },
  });
  return { schools: Number(schools) };
}

/** Withdraws a broadcast: schools no longer see it nor its files, and its unsent mail is not sent. Audited. */
export async function withdrawBroadcast(tx: Database, actor: Actor, id: number): Promise<void> {
  await changeAudited(tx, actor, {
    table: broadcasts,
    id,
    notFound: M.notFound,
    action: 'broadcast.withdrawn',
    snapshot: (row) => ({ withdrawn_at: iso(row.withdrawnAt) }),
    set: (row) => {
      if (row.withdrawnAt) throw new Refused(409, M.alreadyWithdrawn);
      return { withdrawnAt: sql`now()`, withdrawnBy: userOf(actor) };
    },
  });
}

/** The broadcasts of one school (withdrawn ones left out), newest first, or one of them. */
async function schoolBroadcasts(db: Database, schoolId: number, id?: number): Promise<SchoolBroadcast[]> {
  const rows = await db
    .select({
      id: broadcasts.id,
      title: broadcasts.title,
      body: broadcasts.body,
      requiresAcknowledgement: broadcasts.requiresAcknowledgement,
      createdAt: broadcasts.createdAt,
      readAt: broadcastRecipients.readAt,
      acknowledgedAt: broadcastRecipients.acknowledgedAt,
    })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(
      and(
        eq(broadcastRecipients.trainingSchoolId, schoolId),
        isNull(broadcasts.withdrawnAt),
        id === undefined ? undefined : eq(broadcasts.id, id),
      ),
    )
    .orderBy(desc(broadcasts.id))
    .limit(200);
  const files = await attachmentsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    body: row.body,
    requires_acknowledgement: row.requiresAcknowledgement,
    sent_at: iso(row.createdAt)!,
    read_at: iso(row.readAt),
    acknowledged_at: iso(row.acknowledgedAt),
    attachments: files.get(row.id) ?? [],
  }));
}

export const receivedBroadcasts = (db: Database, schoolId: number) => schoolBroadcasts(db, schoolId);

async function oneOfSchool(db: Database, schoolId: number, id: number): Promise<SchoolBroadcast> {
  const [found] = await schoolBroadcasts(db, schoolId, id);
  if (!found) throw new NotFound(M.notFound);
  return found;
}

/**
 * The school's row of a broadcast, changed once: only while `unset` is still empty, so a second opening
 * or acknowledgement changes nothing. Answers whether this call was the one that changed it.
 */
async function markOnce(
  tx: Database,
  schoolId: number,
  id: number,
  unset: typeof broadcastRecipients.readAt | typeof broadcastRecipients.acknowledgedAt,
  set: PgUpdateSetSource<typeof broadcastRecipients>,
): Promise<boolean> {
  const changed = await tx
    .update(broadcastRecipients)
    .set(set)
    .where(
      and(
        eq(broadcastRecipients.broadcastId, id),
        eq(broadcastRecipients.trainingSchoolId, schoolId),
        isNull(unset),
      ),
    )
    .returning({ id: broadcastRecipients.broadcastId });
  return changed.length > 0;
}

/** A school admin opens a broadcast addressed to their school: read from now (the first opening counts). */
export async function openBroadcast(tx: Database, actor: Actor, schoolId: number, id: number) {
  await oneOfSchool(tx, schoolId, id);
  const read = { readAt: sql`now()`, readBy: userOf(actor) };
  if (await markOnce(tx, schoolId, id, broadcastRecipients.readAt, read)) {
    await audit(tx, actor, {
      action: 'broadcast.read',
      entityId: id,
      after: { training_school_id: schoolId },
    });
  }
  return oneOfSchool(tx, schoolId, id);
}

/**
 * A school admin acknowledges a broadcast that asks for it, for their school (once: a second time
 * changes nothing; it counts as read too). The board is told by a 'broadcast.acknowledged'
 * notification whose subject is the broadcast. Audited.
 */
export async function acknowledgeBroadcast(tx: Database, actor: Actor, schoolId: number, id: number) {
  const found = await oneOfSchool(tx, schoolId, id);
  if (!found.requires_acknowledgement) throw new Refused(409, M.noAcknowledgementAsked);
  const userId = userOf(actor);
  const acknowledged = {
    acknowledgedAt: sql`now()`,
    acknowledgedBy: userId,
    readAt: sql`coalesce(${broadcastRecipients.readAt}, now())`,
    readBy: sql`coalesce(${broadcastRecipients.readBy}, ${userId})`,
  };
  if (await markOnce(tx, schoolId, id, broadcastRecipients.acknowledgedAt, acknowledged)) {
    const [school] = await tx
      .select({ name: trainingSchools.name, code: trainingSchools.code })
      .from(trainingSchools)
      .where(eq(trainingSchools.id, schoolId));
    await notifyBoard(tx, actor, {
      kind: 'broadcast.acknowledged',
      title: `${school.name} acknowledged a broadcast`,
      body: `${school.name} (${school.code}) acknowledged "${found.title}".`,
      schoolId,
      subject: id,
    });
    await audit(tx, actor, {
      action: 'broadcast.acknowledged',
      entityId: id,
      after: { training_school_id: schoolId },
    });
  }
  return oneOfSchool(tx, schoolId, id);
}

/**
 * An attachment the caller may have: any board admin; a school admin only of a broadcast addressed to
 * their school and not withdrawn. Anything else is the same 404 as no attachment at all.
 */
export async function attachmentFor(
  db: Database,
  caller: { role: string; trainingSchoolId: number | null },
  broadcastId: number,
  attachmentId: number,
): Promise<{ key: string; contentType: string; name: string }> {
  const school = caller.role === 'admin' ? null : (caller.trainingSchoolId ?? -1);
  const [found] = await db
    .select({ key: files.key, contentType: files.contentType, name: broadcastAttachments.name })
    .from(broadcastAttachments)
    .innerJoin(files, eq(files.id, broadcastAttachments.fileId))
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastAttachments.broadcastId))
    .where(
      and(
        eq(broadcastAttachments.id, attachmentId),
        eq(broadcastAttachments.broadcastId, broadcastId),
        school === null
          ? undefined
          : and(
              isNull(broadcasts.withdrawnAt),
              sql`exists (select 1 from ${broadcastRecipients} r where r.broadcast_id = ${broadcasts.id} and r.training_school_id = ${school})`,
            ),
      ),
    );
  if (!found) throw new NotFound(M.attachmentNotFound);
  return found;
}

/** What the send form offers: every school (with its state and status), the states, the course headers. */
export async function audienceChoices(db: Database): Promise<AudienceChoices> {
  const schools = await db
    .select({
      id: trainingSchools.id,
      code: trainingSchools.code,
      name: trainingSchools.name,
      state: trainingSchools.state,
      status: trainingSchools.status,
    })
    .from(trainingSchools)
    .orderBy(asc(trainingSchools.name));
  const headers = await db
    .select({ id: courseHeaders.id, code: courseHeaders.code, title: courseHeaders.title })
    .from(courseHeaders)
    .orderBy(asc(courseHeaders.code));
  const states = [...new Set(schools.map((school) => school.state.trim()))].sort((a, b) =>
    a.localeCompare(b),
  );
  return { schools, states, course_headers: headers };
}

// Readers for the Dashboard (issue 26 item 1; dash26 shows them).

/** Broadcasts a school has still to acknowledge (asked for, not withdrawn): its Dashboard's count. */
export async function broadcastsToAcknowledge(tx: Database, schoolId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(
      and(
        eq(broadcastRecipients.trainingSchoolId, schoolId),
        eq(broadcasts.requiresAcknowledgement, true),
        isNull(broadcasts.withdrawnAt),
        isNull(broadcastRecipients.acknowledgedAt),
      ),
    );
  return Number(row.n);
}

/** Acknowledgements the board is still waiting for, across its live broadcasts: the board's count. */
export async function acknowledgementsOutstanding(tx: Database): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(broadcastRecipients)
    .innerJoin(broadcasts, eq(broadcasts.id, broadcastRecipients.broadcastId))
    .where(
      and(
        eq(broadcasts.requiresAcknowledgement, true),
        isNull(broadcasts.withdrawnAt),
        isNull(broadcastRecipients.acknowledgedAt),
      ),
    );
  return Number(row.n);
}
