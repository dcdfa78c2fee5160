import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATES_REGISTERED_KIND,
  formatCandidateIndex,
  type RegStatus,
} from '../../contract/candidates';
import { DIET_MESSAGES } from '../../contract/diets';
import { sanctionBlocksMessage } from '../../contract/offenders';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import { boardYear } from '../boardDate';
import type { Database } from '../db/client';
import { duplicateAs, isUniqueViolation } from '../db/errors';
import {
  candidates,
  courseHeaders,
  files,
  notifications,
  registrations,
  trainingSchools,
} from '../db/schema';
import { currentDiet, decideWindow, extensionOf, windowRefusal } from '../diets/window';
import { NotFound, Refused } from '../errors';
import { activeSanction } from '../sanctions';
import type { WithStorage } from '../storage/storage';
import type { CandidateForm } from './form';
import type { ListScope } from './list';
import { auditSnapshot, loadRecord, STORED_TEXT_FIELDS } from './records';
import { putUploads, recordUploads, removeFiles } from './uploads';

/**
 * Candidates as the board and the schools change them: indexing, editing, verification and
 * registration, each audited in the same transaction as the change.
 */

/** The form's text fields as columns: what was left empty is null. */
function textColumns(form: CandidateForm) {
  const input = form.input as Record<string, unknown>;
  const values = Object.fromEntries(
    STORED_TEXT_FIELDS.map((field) => [field, typeof input[field] === 'string' ? input[field] : null]),
  ) as Record<(typeof STORED_TEXT_FIELDS)[number], string | null>;
  return {
    ...values,
    // Required by the validator, so present.
    first_name: form.input.first_name,
    last_name: form.input.last_name,
    date_of_birth: form.input.date_of_birth,
    candidate_category: form.input.candidate_category,
    marital_status: form.input.marital_status,
    gender: form.input.gender,
    nationality: form.input.nationality,
    trainingSchoolId: form.school.id,
    courseHeaderId: form.courseHeader.id,
  };
}

/** The same person, school and course header as another candidate: the unique index decides a race. */
const duplicatePerson = duplicateAs('candidates_person_key', { first_name: [R.duplicate] });

export async function candidateBySubmissionKey(db: Database, key: string): Promise<number | null> {
  const [row] = await db
    .select({ id: candidates.id })
    .from(candidates)
    .where(eq(candidates.submissionKey, key));
  return row?.id ?? null;
}

/**
 * Indexes a candidate: the next number of the board's sequence, the uploads recorded as the candidate's,
 * the audit entry. A submission key sent twice at once indexes once: the second answers the first's id.
 */
export async function indexCandidate(
  { db, storage, log }: WithStorage,
  actor: Actor,
  form: CandidateForm,
  submissionKey: string | null,
): Promise<number> {
  const put = await putUploads(storage, log, form.files);
  try {
    return await db.transaction(async (tx) => {
      const { rows } = (await tx.execute(
        sql`select nextval('candidate_index_seq') as sequence`,
      )) as unknown as { rows: { sequence: string | number | bigint }[] };
      const year = boardYear();
      const [row] = await tx
        .insert(candidates)
        .values({
          ...textColumns(form),
          candidateIndex: formatCandidateIndex(year, form.courseHeader.code, Number(rows[0].sequence)),
          year,
          submissionKey,
          createdBy: userOf(actor),
        })
        .returning({ id: candidates.id });
      await recordUploads(tx, row.id, userOf(actor), put);
      const after = await loadRecord(tx, row.id);
      await audit(tx, actor, { action: 'candidate.indexed', entityId: row.id, after: auditSnapshot(after!) });
      return row.id;
    });
  } catch (error) {
    await removeFiles(
      storage,
      log,
      put.map((entry) => entry.key),
    );
    // The same submission twice at once: the first one in answers both.
    const again =
      isUniqueViolation(error) && submissionKey ? await candidateBySubmissionKey(db, submissionKey) : null;
    if (again) return again;
    return duplicatePerson(error);
  }
}

/**
 * The whole form again: text fields are replaced (left empty: cleared); an upload sent replaces the
 * stored one, an upload left out keeps it. Always audited (an upload sent again is a change the row does
 * not show); the replaced files go once the change is committed.
 */
export async function updateCandidate(
  { db, storage, log }: WithStorage,
  actor: Actor,
  id: number,
  form: CandidateForm,
): Promise<void> {
  const put = await putUploads(storage, log, form.files);
  const replaced: string[] = [];
  try {
    await db.transaction((tx) =>
      changeAudited(tx, actor, {
        table: candidates,
        id,
        notFound: O.notFound,
        action: 'candidate.updated',
        always: true,
        snapshot: async (row) => auditSnapshot((await loadRecord(tx, row.id))!),
        set: () => textColumns(form),
        then: async () => {
          for (const entry of put) {
            const gone = await tx
              .delete(files)
              .where(and(eq(files.candidateId, id), eq(files.field, entry.field)))
              .returning({ key: files.key });
            replaced.push(...gone.map((file) => file.key));
          }
          await recordUploads(tx, id, userOf(actor), put);
        },
      }),
    );
  } catch (error) {
    await removeFiles(
      storage,
      log,
      put.map((entry) => entry.key),
    );
    // Another edit or indexing made the same person meanwhile: the unique index decides.
    duplicatePerson(error);
  }
  // The database no longer points at them; a failure here leaves an orphan file, never a broken record.
  await removeFiles(storage, log, replaced);
}

/** The board has (or has not) checked the documents; who verified, and when, cleared on taking it back. */
export async function setVerification(tx: Database, actor: Actor, id: number, verified: boolean) {
  await changeAudited(tx, actor, {
    table: candidates,
    id,
    notFound: O.notFound,
    action: 'candidate.verification_changed',
    snapshot: (row) => ({ verified: row.verified }),
    set: () => ({
      verified,
      verifiedBy: verified ? actor.userId : null,
      verifiedAt: verified ? sql`now()` : null,
    }),
  });
}

/** Registrations of one school within this long, still unread, are told to the board as one notification. */
const GROUP_WINDOW = sql`interval '1 hour'`;

/**
 * Tells the board that a school admin registered a candidate: the school's unread notification of this
 * kind from the last hour counts one more, or a new one starts. The school's row is locked first, so two
 * registrations at once cannot both start a notification.
 */
async function notifyRegistration(
  tx: Database,
  actor: Actor,
  school: { id: number; code: string; name: string },
) {
  await tx
    .select({ id: trainingSchools.id })
    .from(trainingSchools)
    .where(eq(trainingSchools.id, school.id))
    .for('no key update');
  const [open] = await tx
    .select({ id: notifications.id, data: notifications.data })
    .from(notifications)
    .where(
      and(
        eq(notifications.kind, CANDIDATES_REGISTERED_KIND),
        eq(notifications.trainingSchoolId, school.id),
        isNull(notifications.readAt),
        gt(notifications.createdAt, sql`now() - ${GROUP_WINDOW}`),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(1)
    .for('update');
  const counted = Number((open?.data as { count?: unknown } | null)?.count);
  const total = (Number.isInteger(counted) && counted > 0 ? counted : 0) + 1;
  const text = {
    title: `Candidates registered by ${school.name}`,
    body: `${school.name} (${school.code}) has registered ${total} candidate${total === 1 ? '' : 's'}.`,
    data: { count: total },
  };
  if (open) await tx.update(notifications).set(text).where(eq(notifications.id, open.id));
  else
    await tx.insert(notifications).values({
      kind: CANDIDATES_REGISTERED_KIND,
      ...text,
      trainingSchoolId: school.id,
      createdBy: actor.userId,
    });
}

/**
 * Registers a candidate for the current diet, or takes the registration back (the row stays, so a
 * diet's history is kept). A board admin may change any candidate, at any time the diet is open for
 * change; a school admin only their own school's (another school's is a 404, as if it did not exist),
 * only while the school's window is open (the diet's, or their extension), their school not suspended
 * and the course header's registration switch open (403 with the reason). Registering needs the
 * board's verification of the documents and no sanction covering the diet, for everyone: both are the
 * board's own rulings. `now` is the server's clock.
 */
export async function setRegStatus(
  tx: Database,
  actor: Actor,
  scope: ListScope,
  id: number,
  regStatus: RegStatus,
  now: Date,
) {
  const bySchool = scope.kind === 'school';
  // The candidate locked: two changes of one candidate queue rather than both reading the old status.
  const [facts] = await tx
    .select({
      schoolId: trainingSchools.id,
      code: trainingSchools.code,
      name: trainingSchools.name,
      status: trainingSchools.status,
      registrationStatus: courseHeaders.registrationStatus,
      verified: candidates.verified,
    })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .where(eq(candidates.id, id))
    .for('no key update', { of: candidates });
  if (!facts || (bySchool && facts.schoolId !== scope.schoolId)) throw new NotFound(O.notFound);
  // Shared: closing the diet or moving its window waits for this change, and this one for them.
  const diet = await currentDiet(tx, { forShare: true });
  const extension = diet && bySchool ? await extensionOf(tx, diet.id, facts.schoolId) : null;
  const window = decideWindow(diet, extension, now);
  if (!diet || diet.closedAt) throw new Refused(409, windowRefusal(diet, window, bySchool)!);
  if (bySchool && facts.status === 'suspended') throw new Refused(403, R.registrationSchoolSuspended);
  if (bySchool && facts.registrationStatus !== 'open') throw new Refused(403, R.registrationClosed);
  const refusal = windowRefusal(diet, window, bySchool);
  if (refusal) throw new Refused(403, refusal);
  if (regStatus === 'registered') {
    if (!facts.verified) throw new Refused(403, DIET_MESSAGES.notVerified);
    const sanction = await activeSanction(tx, id, diet.id);
    if (sanction) throw new Refused(403, sanctionBlocksMessage(sanction, 'registered'));
  }

  const [before] = await tx
    .select({ regStatus: registrations.regStatus })
    .from(registrations)
    .where(and(eq(registrations.dietId, diet.id), eq(registrations.candidateId, id)));
  const previous = before?.regStatus ?? 'unregistered';
  if (previous === regStatus) return;
  await tx
    .insert(registrations)
    .values({ dietId: diet.id, candidateId: id, regStatus, changedBy: userOf(actor) })
    .onConflictDoUpdate({
      target: [registrations.dietId, registrations.candidateId],
      set: { regStatus, changedBy: userOf(actor), updatedAt: sql`now()` },
    });
  await audit(tx, actor, {
    action: 'candidate.reg_status_changed',
    entityId: id,
    before: { diet: diet.code, reg_status: previous },
    after: { diet: diet.code, reg_status: regStatus },
  });
  if (bySchool && regStatus === 'registered') {
    await notifyRegistration(tx, actor, { id: facts.schoolId, code: facts.code, name: facts.name });
  }
}
