import { and, eq, sql } from 'drizzle-orm';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  formatCandidateIndex,
} from '../../contract/candidates';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import { boardYear } from '../boardDate';
import type { Database } from '../db/client';
import { duplicateAs, isUniqueViolation } from '../db/errors';
import { candidates, files } from '../db/schema';
import type { WithStorage } from '../storage/storage';
import { queueCheck } from '../integrity/finder';
import type { CandidateForm } from './form';
import { auditSnapshot, loadRecord, STORED_TEXT_FIELDS } from './records';
import { PRINT_PHOTO_FIELD, putUploads, recordUploads, removeFiles } from './uploads';

/**
 * Candidates as the board changes them: indexing, editing and verification (registration is in
 * registration.ts), each audited in the same transaction as the change.
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
      // The duplicate finder checks them against everyone (the 'integrity-check' job, woken by the route).
      await queueCheck(tx, row.id);
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
          // A new photo replaces the print photo too, even when its own could not be made (the
          // print photos job makes it later): a card never prints the face of the photo replaced.
          const fields = new Set(put.map((entry) => entry.field));
          if (fields.has('photo')) fields.add(PRINT_PHOTO_FIELD);
          for (const field of fields) {
            const gone = await tx
              .delete(files)
              .where(and(eq(files.candidateId, id), eq(files.field, field)))
              .returning({ key: files.key });
            replaced.push(...gone.map((file) => file.key));
          }
          await recordUploads(tx, id, userOf(actor), put);
          // A new photo or name is checked again by the duplicate finder.
          await queueCheck(tx, id);
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
