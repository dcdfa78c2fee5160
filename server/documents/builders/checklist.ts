import { and, inArray, isNotNull } from 'drizzle-orm';
import {
  needsPriorCertificate,
  requiredUploadOf,
  UPLOAD_FIELDS,
  UPLOAD_LABELS,
  type UploadField,
} from '../../../contract/candidates';
import type { Database } from '../../db/client';
import { candidates, files } from '../../db/schema';

/**
 * What a candidate's course header needs of them (spec section 5, as the candidate validator enforces
 * it): the photo always; the first prior certificate's details unless the course header is A4, A5 or
 * B5; A4's food hygiene certificate and B5's ND certificate. What is held against that, for the
 * documents checklist and the index form.
 */

/** The first prior certificate's details the validator requires when a course header needs one. */
const PRIOR_CERTIFICATE_FIELDS = [
  'certificate_evaluated',
  'year_of_certificate_evaluated',
  'exam_number_1',
  'exam_month',
] as const;

type Held = 'Present' | 'Missing' | 'Not needed';

export interface Checklist {
  photo: Held;
  priorCertificate: Held;
  /** The course header's own certificate (A4, B5), or null when it has none. */
  courseCertificate: { label: string; held: Held } | null;
  /** The other uploads held, by their labels. */
  otherUploads: string[];
  /** Everything needed is held. */
  complete: boolean;
}

type PriorCertificate = Record<(typeof PRIOR_CERTIFICATE_FIELDS)[number], string | null>;

export interface HeldOfCandidate {
  uploads: Set<UploadField>;
  prior: PriorCertificate;
}

const heldIf = (present: boolean): Held => (present ? 'Present' : 'Missing');

export function checklistOf(courseHeaderCode: string, held: HeldOfCandidate): Checklist {
  const own = requiredUploadOf(courseHeaderCode);
  const photo = heldIf(held.uploads.has('photo'));
  const priorCertificate = needsPriorCertificate(courseHeaderCode)
    ? heldIf(PRIOR_CERTIFICATE_FIELDS.every((field) => Boolean(held.prior[field]?.trim())))
    : 'Not needed';
  const courseCertificate = own ? { label: UPLOAD_LABELS[own], held: heldIf(held.uploads.has(own)) } : null;
  const otherUploads = UPLOAD_FIELDS.filter(
    (field) => field !== 'photo' && field !== own && held.uploads.has(field),
  ).map((field) => UPLOAD_LABELS[field]);
  const complete = photo !== 'Missing' && priorCertificate !== 'Missing' && courseCertificate?.held !== 'Missing';
  return { photo, priorCertificate, courseCertificate, otherUploads, complete };
}

/** Whether each upload is required of a course header's candidates. */
export const uploadRequired = (courseHeaderCode: string, field: UploadField) =>
  field === 'photo' || requiredUploadOf(courseHeaderCode) === field;

/** The uploads stored and the prior certificate's details, of some candidates (one page of a list). */
export async function heldOf(db: Database, ids: number[]): Promise<Map<number, HeldOfCandidate>> {
  const held = new Map<number, HeldOfCandidate>();
  if (!ids.length) return held;
  const people = await db
    .select({
      id: candidates.id,
      certificate_evaluated: candidates.certificate_evaluated,
      year_of_certificate_evaluated: candidates.year_of_certificate_evaluated,
      exam_number_1: candidates.exam_number_1,
      exam_month: candidates.exam_month,
    })
    .from(candidates)
    .where(inArray(candidates.id, ids));
  for (const { id, ...prior } of people) held.set(id, { uploads: new Set(), prior });
  const stored = await db
    .select({ candidateId: files.candidateId, field: files.field })
    .from(files)
    .where(and(inArray(files.candidateId, ids), isNotNull(files.field)));
  for (const { candidateId, field } of stored) {
    if ((UPLOAD_FIELDS as readonly string[]).includes(field!)) {
      held.get(candidateId!)?.uploads.add(field as UploadField);
    }
  }
  return held;
}
