import { asc } from 'drizzle-orm';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  SUBMISSION_KEY_FIELD,
  type CandidateFormOptions,
  type UploadField,
} from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS as E } from '../../contract/candidates.endpoints';
import type { Role } from '../../contract/roles';
import { boardToday } from '../boardDate';
import { candidateDossier } from '../candidates/dossier';
import { checkCandidateForm } from '../candidates/form';
import { loadRecord, loadRow } from '../candidates/records';
import * as candidates from '../candidates/service';
import { courseHeaders, trainingSchools } from '../db/schema';
import { NotFound } from '../errors';
import { checkDuplicatesSoon } from '../integrity/wake';
import {
  actorOf,
  callerOf,
  dbOf,
  nowOf,
  scopeOf,
  transact,
  withStorage,
  type AppContext,
} from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { checkedForm } from '../http/validate';

const candidateId = (c: AppContext) => idOf(c, O.notFound);

async function answerRecord(c: AppContext, id: number, message: string) {
  const loaded = await loadRecord(dbOf(c), id);
  if (!loaded) throw new NotFound(O.notFound);
  return ok(c, loaded.record, message);
}

/**
 * The index form: a body whose `submission_key` names a candidate already indexed is that candidate
 * again (a retry after a lost answer never makes a second one, whatever the form says now); anything
 * else is checked whole (server/candidates/form.ts).
 */
const indexForm = checkedForm(async (body, c) => {
  const sent = body[SUBMISSION_KEY_FIELD];
  const submissionKey = typeof sent === 'string' && sent.trim() ? sent.trim().slice(0, 64) : null;
  const again = submissionKey ? await candidates.candidateBySubmissionKey(dbOf(c), submissionKey) : null;
  if (again) return { kind: 'again' as const, id: again };
  return { kind: 'new' as const, form: await checkCandidateForm(dbOf(c), body), submissionKey };
});

/** The edit form, checked against the stored candidate: an upload left out keeps the stored file. */
const editForm = checkedForm(async (body, c) => {
  const id = candidateId(c);
  const existing = await loadRecord(dbOf(c), id);
  if (!existing) throw new NotFound(O.notFound);
  return checkCandidateForm(dbOf(c), body, {
    id,
    trainingSchoolId: existing.trainingSchoolId,
    courseHeaderId: existing.courseHeaderId,
    storedUploads: new Set(Object.keys(existing.uploads) as UploadField[]),
  });
});

/** The board's candidate pages: index, search, read, edit, verify, and the form's choices. */
export const candidateRoutes: Route[] = [
  /** Multipart: index a candidate (server/candidates/service.ts). */
  serve(E.create, indexForm, async (c) => {
    const sent = c.req.valid('form');
    const id =
      sent.kind === 'again'
        ? sent.id
        : await candidates.indexCandidate(withStorage(c), actorOf(c), sent.form, sent.submissionKey);
    await checkDuplicatesSoon(c);
    return answerRecord(c, id, O.indexed);
  }),

  serve(E.read, (c) => answerRecord(c, candidateId(c), '')),

  /** Multipart with `_method=PUT`: the whole form again. */
  serve(E.update, editForm, async (c) => {
    const id = candidateId(c);
    await candidates.updateCandidate(withStorage(c), actorOf(c), id, c.req.valid('form'));
    await checkDuplicatesSoon(c);
    return answerRecord(c, id, O.updated);
  }),

  serve(E.verification, async (c) => {
    const { verified } = c.req.valid('json');
    const id = candidateId(c);
    await transact(c, (tx, actor) => candidates.setVerification(tx, actor, id, verified));
    const row = await loadRow(dbOf(c), id);
    if (!row) throw new NotFound(O.notFound);
    return ok(c, row, verified ? O.verified : O.unverified);
  }),

  serve(E.formOptions, async (c) => {
    const db = dbOf(c);
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
  }),
];

/** A candidate's record page, for each role under its own prefix: a school admin their own school's only. */
const recordRoutes = (role: Role): Route[] => [
  serve(E.record[role], async (c) => {
    const id = candidateId(c);
    const caller = { role: callerOf(c).role, scope: scopeOf(c) };
    return ok(c, await candidateDossier(dbOf(c), caller, id, boardToday(nowOf(c))));
  }),
];

export const candidateRecordRoutes = [...recordRoutes('admin'), ...recordRoutes('school_admin')];
