import { dietByCode } from '../diets/byCode';
import { eq } from 'drizzle-orm';
import {
  DOCUMENT_MESSAGES as M,
  DOCUMENT_PARAM_LABELS as LABELS,
  DOCUMENTS,
  type DocumentDefinition,
} from '../../contract/documents';
import type { DocumentQuery } from '../../contract/documents.validators';
import type { FieldMessages } from '../../contract/envelope';
import type { PrintDocumentEnding } from '../../contract/navigation';
import type { Database } from '../db/client';
import { candidates, courseHeaders, papers, trainingSchools, type StoredQuery } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import type { Caller } from '../http/context';
import type { DocumentScope } from './builder';
import { schoolsMayPrint } from './permissions';

/**
 * A document's query, resolved against the caller into the scope its builder reads. The server trusts
 * nothing of it: an unknown document is a 404; a school admin may print only what the board lets
 * schools print (403), and only about their own school: their `school` is always their own, and a
 * query naming another school, or another school's candidate, is answered exactly as one naming a
 * school or candidate that does not exist (422 'There is no such training school.'), so the answer
 * does not even tell that the code exists. Parameters a document does not take are left out.
 */

export type Requester = Pick<Caller, 'role' | 'trainingSchoolId'>;

/** The board, as verification resolves a stored query again (every school's data, no choice to ask). */
export const BOARD: Requester = { role: 'admin', trainingSchoolId: null };

export const isDocumentEnding = (ending: string): ending is PrintDocumentEnding =>
  Object.hasOwn(DOCUMENTS, ending);

interface ResolvedQuery {
  definition: DocumentDefinition;
  scope: DocumentScope;
  /** The query by codes, as stored with the print to resolve it again. */
  stored: StoredQuery;
}

const refuse = (field: keyof typeof LABELS, message: string) => new Invalid({ [field]: [message] });

export async function resolveQuery(
  db: Database,
  caller: Requester,
  ending: string,
  query: DocumentQuery,
): Promise<ResolvedQuery> {
  if (!isDocumentEnding(ending)) throw new NotFound(M.unknownDocument);
  const definition = DOCUMENTS[ending];
  const { params } = definition;
  const school = caller.role === 'admin' ? null : caller.trainingSchoolId;
  if (caller.role !== 'admin') {
    // A school admin without a school (never made so) may print nothing.
    if (school === null || !(await schoolsMayPrint(db, ending))) throw new Refused(403, M.notForSchools);
  }

  const variants = definition.variants ?? [];
  const variant = query.variant ?? variants[0]?.value ?? null;
  if (variant !== null && !variants.some((v) => v.value === variant))
    throw refuse('variant', M.unknownVariant);

  const given = {
    diet: params.diet ? query.diet : undefined,
    school: params.school ? query.school : undefined,
    course_header: params.course_header ? query.course_header : undefined,
    paper: params.paper ? query.paper : undefined,
    candidate: params.candidate ? query.candidate : undefined,
  };
  const missing: FieldMessages = {};
  for (const [field, need] of Object.entries(params)) {
    const key = field as keyof typeof given;
    // A school admin's school is their own: never missing.
    if (need === 'required' && given[key] === undefined && !(key === 'school' && school !== null)) {
      missing[key] = [M.paramRequired(LABELS[key])];
    }
  }
  if (Object.keys(missing).length) throw new Invalid(missing);

  const scope: DocumentScope = {
    diet: null,
    school: null,
    courseHeader: null,
    paper: null,
    candidate: null,
    variant,
  };

  if (given.diet !== undefined) {
    const row = await dietByCode(db, given.diet);
    if (!row) throw refuse('diet', M.unknownDiet);
    scope.diet = { id: row.id, code: row.code, name: row.name };
  }

  if (params.school && (given.school !== undefined || school !== null)) {
    const [row] = await db
      .select({ id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name })
      .from(trainingSchools)
      .where(
        given.school !== undefined ? eq(trainingSchools.code, given.school) : eq(trainingSchools.id, school!),
      );
    // Another school than a school admin's own reads as no school at all.
    if (!row || (school !== null && row.id !== school)) throw refuse('school', M.unknownSchool);
    scope.school = row;
  }

  if (given.course_header !== undefined) {
    const [row] = await db
      .select({ id: courseHeaders.id, code: courseHeaders.code, name: courseHeaders.title })
      .from(courseHeaders)
      .where(eq(courseHeaders.code, given.course_header));
    if (!row) throw refuse('course_header', M.unknownCourseHeader);
    scope.courseHeader = row;
  }

  if (given.paper !== undefined) {
    const [row] = await db
      .select({ id: papers.id, name: papers.name, courseHeaderId: papers.courseHeaderId })
      .from(papers)
      .where(eq(papers.id, given.paper));
    // A paper must be of the course header chosen with it.
    if (!row || (scope.courseHeader && row.courseHeaderId !== scope.courseHeader.id)) {
      throw refuse('paper', M.unknownPaper);
    }
    scope.paper = row;
  }

  if (given.candidate !== undefined) {
    const [row] = await db
      .select({
        id: candidates.id,
        candidateIndex: candidates.candidateIndex,
        trainingSchoolId: candidates.trainingSchoolId,
        courseHeaderId: candidates.courseHeaderId,
      })
      .from(candidates)
      .where(eq(candidates.candidateIndex, given.candidate));
    // Another school's candidate reads as no candidate, for a school admin; for anyone, a candidate
    // outside the school or course header chosen with it names nothing in that scope.
    if (
      !row ||
      (school !== null && row.trainingSchoolId !== school) ||
      (scope.school && row.trainingSchoolId !== scope.school.id) ||
      (scope.courseHeader && row.courseHeaderId !== scope.courseHeader.id)
    ) {
      throw refuse('candidate', M.unknownCandidate);
    }
    scope.candidate = {
      id: row.id,
      candidateIndex: row.candidateIndex,
      trainingSchoolId: row.trainingSchoolId,
    };
  }

  const stored: StoredQuery = {};
  if (scope.diet) stored.diet = scope.diet.code;
  if (scope.school) stored.school = scope.school.code;
  if (scope.courseHeader) stored.course_header = scope.courseHeader.code;
  if (scope.paper) stored.paper = scope.paper.id;
  if (scope.candidate) stored.candidate = scope.candidate.candidateIndex;
  if (variant !== null) stored.variant = variant;
  return { definition, scope, stored };
}
