import { and, eq, ne, sql } from 'drizzle-orm';
import {
  CANDIDATE_MESSAGES as M,
  CANDIDATE_RULE_MESSAGES as R,
  UPLOAD_FIELDS,
  type UploadField,
} from '../../contract/candidates';
import {
  candidateValidator,
  normaliseCandidateInput,
  withStoredUploads,
} from '../../contract/candidates.validators';
import type { FieldMessages } from '../../contract/envelope';
import type { Database } from '../db/client';
import { candidates, courseHeaders, nationalities, trainingSchools } from '../db/schema';
import { Invalid } from '../errors';
import { runValidator } from '../../contract/endpoint';
import { checkUpload, type Upload, type UploadRule } from '../storage/uploads';

/**
 * The candidate form on the server: the contract's validator (the browser's rules and messages, word for
 * word), then what the browser cannot be trusted with, each as a field message of one 422.
 */

type CandidateInput = Awaited<ReturnType<typeof candidateValidator.validate>>;

/** The photo: what every browser shows in an <img>. */
const PHOTO_TYPES = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' } as const;
/** Certificates: a photo or a scan (PDF). */
const CERTIFICATE_TYPES = { ...PHOTO_TYPES, 'application/pdf': 'pdf' } as const;

const PHOTO_RULE: UploadRule = { types: PHOTO_TYPES, tooLarge: M.fileTooLarge, notAccepted: R.photoNotImage };
const CERTIFICATE_RULE: UploadRule = {
  types: CERTIFICATE_TYPES,
  tooLarge: M.fileTooLarge,
  notAccepted: R.certificateNotImageOrPdf,
};
export const uploadRule = (field: UploadField) => (field === 'photo' ? PHOTO_RULE : CERTIFICATE_RULE);

/** The stored candidate an edit starts from; absent when indexing a new one. */
export interface EditedCandidate {
  id: number;
  trainingSchoolId: number;
  courseHeaderId: number;
  storedUploads: ReadonlySet<UploadField>;
}

export interface CandidateForm {
  input: CandidateInput;
  files: Partial<Record<UploadField, Upload>>;
  school: { id: number; code: string; name: string };
  courseHeader: { id: number; code: string };
}

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

function add(fields: FieldMessages, field: string, message: string) {
  const messages = (fields[field] ??= []);
  if (!messages.includes(message)) messages.push(message);
}

/**
 * Checks the whole multipart (or JSON) body: the contract's validator, each upload's content, the school
 * (exists, not suspended), the course header (exists, indexing open), the nationality, and the duplicate
 * rule. Every problem found is thrown in one Invalid (one 422).
 *
 * On an edit, an upload left out keeps the stored file, so a required upload is missing only when none
 * is stored; a suspended school and a closed course header refuse only a move into them.
 */
export async function checkCandidateForm(
  db: Database,
  body: Record<string, unknown>,
  edited?: EditedCandidate,
): Promise<CandidateForm> {
  // Text sent in a file field is ignored: never taken as a URL or a path.
  for (const field of UPLOAD_FIELDS) if (!(body[field] instanceof Blob)) delete body[field];
  const values = normaliseCandidateInput(body);

  const schoolCode = trimmed(values.school_code);
  const courseCode = trimmed(values.course_header);
  const nationalityCode = trimmed(values.nationality);
  const uploads = UPLOAD_FIELDS.filter((field) => values[field] instanceof File);
  // An edit that leaves an upload out keeps the stored file, so a required upload is there.
  const validatedValues = withStoredUploads(values, edited?.storedUploads ?? []);

  const [validated, checked, school, courseHeader, nationality] = await Promise.all([
    runValidator(candidateValidator, validatedValues).then((result) =>
      result.fields ? { input: null, fields: result.fields } : { input: result.value, fields: null },
    ),
    Promise.all(
      uploads.map(
        async (field) => [field, await checkUpload(values[field] as File, uploadRule(field))] as const,
      ),
    ),
    schoolCode
      ? db
          .select({
            id: trainingSchools.id,
            code: trainingSchools.code,
            name: trainingSchools.name,
            status: trainingSchools.status,
          })
          .from(trainingSchools)
          .where(eq(trainingSchools.code, schoolCode))
          .then((rows) => rows[0] ?? null)
      : null,
    courseCode
      ? db
          .select({
            id: courseHeaders.id,
            code: courseHeaders.code,
            indexingStatus: courseHeaders.indexingStatus,
          })
          .from(courseHeaders)
          .where(eq(courseHeaders.code, courseCode))
          .then((rows) => rows[0] ?? null)
      : null,
    nationalityCode
      ? db
          .select({ code: nationalities.code })
          .from(nationalities)
          .where(eq(nationalities.code, nationalityCode))
          .then((rows) => rows[0] ?? null)
      : null,
  ]);

  const fields: FieldMessages = {};
  for (const [field, messages] of Object.entries(validated.fields ?? {})) {
    for (const message of messages) add(fields, field, message);
  }
  const files: Partial<Record<UploadField, Upload>> = {};
  for (const [field, outcome] of checked) {
    if (typeof outcome === 'string') add(fields, field, outcome);
    else files[field] = outcome;
  }

  if (schoolCode && !fields.school_code) {
    if (!school) add(fields, 'school_code', R.schoolUnknown);
    else if (school.status === 'suspended' && school.id !== edited?.trainingSchoolId)
      add(fields, 'school_code', R.schoolSuspended);
  }
  if (courseCode && !fields.course_header) {
    if (!courseHeader) add(fields, 'course_header', R.courseHeaderUnknown);
    else if (courseHeader.indexingStatus !== 'open' && courseHeader.id !== edited?.courseHeaderId)
      add(fields, 'course_header', R.indexingClosed);
  }
  if (nationalityCode && !fields.nationality && !nationality)
    add(fields, 'nationality', R.nationalityUnknown);

  // The duplicate rule needs a valid name, date of birth, school and course header; it runs even when
  // other fields are wrong, so the form hears of it at once.
  const person = ['first_name', 'last_name', 'date_of_birth'].every((field) => !fields[field]);
  if (person && school && courseHeader) {
    const duplicate = await findDuplicate(db, {
      schoolId: school.id,
      courseHeaderId: courseHeader.id,
      firstName: trimmed(values.first_name),
      lastName: trimmed(values.last_name),
      dateOfBirth: trimmed(values.date_of_birth),
      exceptId: edited?.id,
    });
    if (duplicate) add(fields, 'first_name', R.duplicate);
  }

  if (Object.keys(fields).length || !validated.input || !school || !courseHeader) throw new Invalid(fields);
  return { input: validated.input, files, school, courseHeader };
}

/** The duplicate rule: the same first name, last name (case-blind) and date of birth, at the same
 * school, for the same course header (the unique index candidates_person_key). */
async function findDuplicate(
  db: Database,
  person: {
    schoolId: number;
    courseHeaderId: number;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    exceptId?: number;
  },
): Promise<boolean> {
  const [row] = await db
    .select({ id: candidates.id })
    .from(candidates)
    .where(
      and(
        eq(candidates.trainingSchoolId, person.schoolId),
        eq(candidates.courseHeaderId, person.courseHeaderId),
        sql`lower(${candidates.first_name}) = lower(${person.firstName})`,
        sql`lower(${candidates.last_name}) = lower(${person.lastName})`,
        eq(candidates.date_of_birth, person.dateOfBirth),
        person.exceptId === undefined ? undefined : ne(candidates.id, person.exceptId),
      ),
    )
    .limit(1);
  return !!row;
}
