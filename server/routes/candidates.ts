import vine, { SimpleMessagesProvider } from '@vinejs/vine';
import { and, asc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  SUBMISSION_KEY_FIELD,
  formatCandidateIndex,
  type CandidateFormOptions,
  type UploadField,
} from '../../contract/candidates';
import { audit } from '../audit';
import { boardYear } from '../boardDate';
import { readCandidateForm, type CandidateForm } from '../candidates/form';
import { auditSnapshot, loadRecord, loadRow, STORED_TEXT_FIELDS } from '../candidates/records';
import { putUploads, recordUploads, removeFiles } from '../candidates/uploads';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { candidates, courseHeaders, files, trainingSchools } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { parseBody, readBody } from '../http/validate';

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

const notFound = (c: AppContext) => refuse(c, 404, O.notFound);

async function candidateBySubmissionKey(db: Database, key: string): Promise<number | null> {
  const [row] = await db
    .select({ id: candidates.id })
    .from(candidates)
    .where(eq(candidates.submissionKey, key));
  return row?.id ?? null;
}

async function answerRecord(c: AppContext, id: number, message: string) {
  const loaded = await loadRecord(c.get('deps').database.db, id);
  return loaded ? ok(c, loaded.record, message) : notFound(c);
}

/**
 * POST /candidates (multipart): index a candidate. A body whose `submission_key` names a candidate
 * already indexed answers that candidate again, so a retry after a lost answer never makes a second
 * one. Uploads are stored first and the record in one transaction after; if that fails, the files go.
 */
async function indexCandidate(c: AppContext) {
  const caller = callerOf(c);
  const { database, storage, log } = c.get('deps');
  const db = database.db;
  const body = await parseBody(c);
  const sentKey = body[SUBMISSION_KEY_FIELD];
  const submissionKey = typeof sentKey === 'string' && sentKey.trim() ? sentKey.trim().slice(0, 64) : null;
  if (submissionKey) {
    const again = await candidateBySubmissionKey(db, submissionKey);
    if (again) return answerRecord(c, again, O.indexed);
  }

  const form = await readCandidateForm(c, body);
  if (form instanceof Response) return form;
  const put = await putUploads(storage, log, form.files);
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const { rows } = (await tx.execute(
        sql`select nextval('candidate_index_seq') as sequence`,
      )) as unknown as {
        rows: { sequence: string | number | bigint }[];
      };
      const year = boardYear();
      const [row] = await tx
        .insert(candidates)
        .values({
          ...textColumns(form),
          candidateIndex: formatCandidateIndex(year, form.courseHeader.code, Number(rows[0].sequence)),
          year,
          submissionKey,
          createdBy: caller.userId,
        })
        .returning({ id: candidates.id });
      await recordUploads(tx, row.id, caller.userId, put);
      const after = await loadRecord(tx, row.id);
      await audit(tx, auditActor(c), {
        action: 'candidate.indexed',
        entity: 'candidate',
        entityId: row.id,
        after: auditSnapshot(after!),
      });
      return row.id;
    });
  } catch (error) {
    await removeFiles(
      storage,
      log,
      put.map((entry) => entry.key),
    );
    if (isUniqueViolation(error)) {
      // The same submission twice at once: the first one in answers both.
      const again = submissionKey ? await candidateBySubmissionKey(db, submissionKey) : null;
      if (again) return answerRecord(c, again, O.indexed);
      if (isUniqueViolation(error, 'candidates_person_key')) return invalid(c, { first_name: [R.duplicate] });
    }
    throw error;
  }
  return answerRecord(c, id, O.indexed);
}

/**
 * POST /candidates/:id (multipart, `_method=PUT`): the whole form again. Text fields are replaced (left
 * empty: cleared); an upload sent replaces the stored one, an upload left out keeps it. Audited with
 * before and after; the replaced files go once the change is committed.
 */
async function updateCandidate(c: AppContext) {
  const id = idParam(c);
  if (!id) return notFound(c);
  const { database, storage, log } = c.get('deps');
  const db = database.db;
  const existing = await loadRecord(db, id);
  if (!existing) return notFound(c);

  const form = await readCandidateForm(c, await parseBody(c), {
    id,
    trainingSchoolId: existing.trainingSchoolId,
    courseHeaderId: existing.courseHeaderId,
    storedUploads: new Set(Object.keys(existing.uploads) as UploadField[]),
  });
  if (form instanceof Response) return form;
  const caller = callerOf(c);
  const put = await putUploads(storage, log, form.files);
  const replaced: string[] = [];
  try {
    const found = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: candidates.id })
        .from(candidates)
        .where(eq(candidates.id, id))
        .for('update');
      if (!locked) return false;
      const before = (await loadRecord(tx, id))!;
      await tx
        .update(candidates)
        .set({ ...textColumns(form), updatedAt: sql`now()` })
        .where(eq(candidates.id, id));
      for (const entry of put) {
        const gone = await tx
          .delete(files)
          .where(and(eq(files.candidateId, id), eq(files.field, entry.field)))
          .returning({ key: files.key });
        replaced.push(...gone.map((file) => file.key));
      }
      await recordUploads(tx, id, caller.userId, put);
      const after = (await loadRecord(tx, id))!;
      await audit(tx, auditActor(c), {
        action: 'candidate.updated',
        entity: 'candidate',
        entityId: id,
        before: auditSnapshot(before),
        after: auditSnapshot(after),
      });
      return true;
    });
    if (!found) {
      await removeFiles(
        storage,
        log,
        put.map((entry) => entry.key),
      );
      return notFound(c);
    }
  } catch (error) {
    replaced.length = 0;
    await removeFiles(
      storage,
      log,
      put.map((entry) => entry.key),
    );
    // Another edit or indexing made the same person meanwhile: the unique index decides.
    if (isUniqueViolation(error, 'candidates_person_key')) return invalid(c, { first_name: [R.duplicate] });
    throw error;
  }
  // The database no longer points at them; a failure here leaves an orphan file, never a broken record.
  await removeFiles(storage, log, replaced);
  return answerRecord(c, id, O.updated);
}

const verificationValidator = vine.create(vine.object({ verified: vine.boolean() }));
verificationValidator.messagesProvider = new SimpleMessagesProvider({
  'verified.required': R.choose,
  'verified.boolean': R.choose,
});

/** POST /candidates/:id/verification `{ verified }`: the board has (or has not) checked the documents. */
async function setVerification(c: AppContext) {
  const id = idParam(c);
  const input = await readBody(c, verificationValidator);
  if (input instanceof Response) return input;
  if (!id) return notFound(c);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;
  const found = await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ verified: candidates.verified })
      .from(candidates)
      .where(eq(candidates.id, id))
      .for('update');
    if (!row) return false;
    if (row.verified === input.verified) return true;
    await tx
      .update(candidates)
      .set({
        verified: input.verified,
        // Who verified, and when; cleared when the mark is taken back (the audit log keeps who did that).
        verifiedBy: input.verified ? caller.userId : null,
        verifiedAt: input.verified ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(eq(candidates.id, id));
    await audit(tx, auditActor(c), {
      action: 'candidate.verification_changed',
      entity: 'candidate',
      entityId: id,
      before: { verified: row.verified },
      after: { verified: input.verified },
    });
    return true;
  });
  const row = found ? await loadRow(db, id) : null;
  if (!row) return notFound(c);
  return ok(c, row, input.verified ? O.verified : O.unverified);
}

/** The board's candidate pages: index, search, read, edit, verify, and the form's choices. */
export const candidateRoutes = new Hono<AppEnv>()
  .post('/candidates', indexCandidate)
  .get('/candidates/:id', async (c) => {
    const id = idParam(c);
    return id ? answerRecord(c, id, '') : notFound(c);
  })
  .post('/candidates/:id', updateCandidate)
  .post('/candidates/:id/verification', setVerification)
  .get('/candidate-form-options', async (c) => {
    const db = c.get('deps').database.db;
    const [schools, headers] = await Promise.all([
      db
        .select({ code: trainingSchools.code, name: trainingSchools.name, status: trainingSchools.status })
        .from(trainingSchools)
        .orderBy(asc(trainingSchools.name), asc(trainingSchools.id)),
      db
        .select({
          code: courseHeaders.code,
          title: courseHeaders.title,
          indexing_status: courseHeaders.indexingStatus,
          registration_status: courseHeaders.registrationStatus,
        })
        .from(courseHeaders)
        .orderBy(asc(courseHeaders.code)),
    ]);
    const options: CandidateFormOptions = { schools, course_headers: headers };
    return ok(c, options);
  });
