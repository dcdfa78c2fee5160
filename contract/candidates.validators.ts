import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import {
  CANDIDATE_CATEGORIES,
  CANDIDATE_MESSAGES as M,
  CANDIDATE_RULE_MESSAGES as R,
  CERTIFICATES,
  EXAM_MONTHS,
  GRADES,
  SUBJECT_FIELDS,
  TITLES,
  UPLOAD_FIELDS,
  needsPriorCertificate,
  requiredUploadOf,
  type UploadField,
} from './candidates';
import { isoDate } from './dates.validators';
import { formValidator } from './formValidator';
import { GENDERS, MARITAL_STATUSES, NAME_MIN_LENGTH, UPLOAD_LIMIT_BYTES } from './constants';

/**
 * The one candidate validator, run by the form in the browser and again by the server on every
 * submission, so the two can never disagree (spec section 5). What the browser cannot be trusted with
 * (a file's real content, that the school exists, that indexing is open) the server checks after it.
 */

/** A year of a certificate: four digits, not in the future. */
const isYear = vine.createRule((value, _options, field: FieldContext) => {
  const year = Number(value);
  if (typeof value !== 'string' || !/^\d{4}$/.test(value) || year < 1950 || year > new Date().getFullYear()) {
    field.report(R.yearInvalid, 'year', field);
  }
});

/** A date (a real one: the ISO-date rule runs first) that is not after today. */
const notFuture = vine.createRule((value, _options, field: FieldContext) => {
  if (typeof value === 'string' && new Date(`${value}T00:00:00Z`) > new Date()) {
    field.report(R.dateOfBirthFuture, 'notFuture', field);
  }
});

/** Below the limit, else 'File is too large' (spec section 9: 2,000,000 bytes). */
const withinUploadLimit = vine.createRule((value, _options, field: FieldContext) => {
  if (value instanceof Blob && value.size > UPLOAD_LIMIT_BYTES)
    field.report(M.fileTooLarge, 'fileSize', field);
});

const text = (max = 100) => vine.string().trim().maxLength(max);
const choice = (values: readonly string[]) => vine.enum(values as string[]);
const grade = () => choice(GRADES).optional();
const upload = () => vine.any().use(withinUploadLimit()).optional();

const subjects = Object.fromEntries(SUBJECT_FIELDS.map((field) => [field, grade()])) as Record<
  (typeof SUBJECT_FIELDS)[number],
  ReturnType<typeof grade>
>;

const whenPriorCertificateNeeded = (field: FieldContext) =>
  needsPriorCertificate(field.parent?.course_header);

/** The upload is one the chosen course header requires (A4, B5). */
const whenCourseHeaderRequires = (upload: string) => (field: FieldContext) =>
  requiredUploadOf(field.parent?.course_header) === upload;

const candidateSchema = vine.object({
  submission_key: vine.string().trim().maxLength(64).optional(),
  first_name: text().minLength(NAME_MIN_LENGTH),
  last_name: text().minLength(NAME_MIN_LENGTH),
  middle_name: text().optional(),
  title: choice(TITLES).optional(),
  school_code: text(20),
  date_of_birth: vine.string().trim().use(isoDate()).use(notFuture()),
  candidate_category: choice(CANDIDATE_CATEGORIES.map((c) => c.code)),
  course_header: text(10),
  marital_status: choice(MARITAL_STATUSES.map((m) => m.code)),
  gender: choice(GENDERS),
  nationality: text(2),
  certificate_evaluated: choice(CERTIFICATES).optional().requiredWhen(whenPriorCertificateNeeded),
  certificate_evaluated_2: choice(CERTIFICATES).optional(),
  year_of_certificate_evaluated: vine
    .string()
    .trim()
    .use(isYear())
    .optional()
    .requiredWhen(whenPriorCertificateNeeded),
  year_of_certificate_evaluated_2: vine.string().trim().use(isYear()).optional(),
  exam_number_1: text(30).optional().requiredWhen(whenPriorCertificateNeeded),
  exam_number_2: text(30).optional(),
  exam_month: choice(EXAM_MONTHS).optional().requiredWhen(whenPriorCertificateNeeded),
  exam_month_2: choice(EXAM_MONTHS).optional(),
  ...subjects,
  photo: vine.any().use(withinUploadLimit()),
  birth_certificate_upload: upload(),
  marriage_certificate_upload: upload(),
  olevel_certificate_upload: upload(),
  olevel_2_certificate_upload: upload(),
  fn_image_upload: upload().requiredWhen(whenCourseHeaderRequires('fn_image_upload')),
  phn_certificate_upload: upload(),
  phn_2_certificate_upload: upload(),
  nd_certificate_upload: upload().requiredWhen(whenCourseHeaderRequires('nd_certificate_upload')),
  hnd_certificate_upload: upload(),
});

const required = (field: string, message: string) => ({
  [`${field}.required`]: message,
  [`${field}.requiredWhen`]: message,
});

const messages = {
  ...required('first_name', M.firstNameRequired),
  'first_name.minLength': M.firstNameShort,
  ...required('last_name', M.lastNameRequired),
  'last_name.minLength': M.lastNameShort,
  ...required('school_code', M.schoolRequired),
  ...required('date_of_birth', M.dateOfBirthRequired),
  'date_of_birth.isoDate': M.dateOfBirthInvalid,
  ...required('candidate_category', M.categoryRequired),
  ...required('course_header', M.courseHeaderRequired),
  ...required('marital_status', M.maritalStatusRequired),
  ...required('nationality', M.nationalityRequired),
  ...required('gender', M.genderRequired),
  ...required('photo', M.photoRequired),
  ...required('certificate_evaluated', M.certificateRequired),
  ...required('year_of_certificate_evaluated', M.examYearRequired),
  ...required('exam_number_1', M.examNumberRequired),
  ...required('exam_month', M.examMonthRequired),
  ...required('fn_image_upload', M.foodHygieneRequired),
  ...required('nd_certificate_upload', M.ndCertificateRequired),
  enum: R.choose,
  maxLength: R.tooLong,
};

/** Empty inputs count as not given: '' and an empty file input (size 0) become undefined. */
export function normaliseCandidateInput(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.trim() === '') continue;
    if (value instanceof Blob && value.size === 0) continue;
    out[name] = value;
  }
  return out;
}

/** Stands in, for the validator, for a file stored earlier that an edit does not send again. */
const STORED_FILE = new Blob(['stored']);

/**
 * An edit's values as the validator reads them: an upload that is not sent again while a file is stored
 * for it counts as given, so a stored file satisfies its rule (the photo, A4's food hygiene certificate,
 * B5's ND certificate, any required upload), and replacing it stays optional. The browser and the server
 * both call this with the uploads the record has stored; a new candidate has none, so it needs them all.
 * Run after normaliseCandidateInput (an empty file input is not sent again).
 */
export function withStoredUploads(
  values: Record<string, unknown>,
  stored: Iterable<UploadField>,
): Record<string, unknown> {
  const out = { ...values };
  for (const field of stored) out[field] ??= STORED_FILE;
  return out;
}

export const candidateValidator = formValidator(candidateSchema, messages);

/** Every upload field, for code that walks them (the server's content check, the form's inputs). */
export const CANDIDATE_UPLOAD_FIELDS = UPLOAD_FIELDS;

/** The board's verification of one candidate (verified or not). */
export const verificationValidator = formValidator(vine.object({ verified: vine.boolean() }), {
  'verified.required': R.choose,
  'verified.boolean': R.choose,
});
