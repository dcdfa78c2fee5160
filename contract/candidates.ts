import { SPECIAL_COURSE_HEADERS } from './constants';

/**
 * The candidate form (spec sections 3 and 5): every field, its choices, and the messages, word for word.
 * The VineJS validator that enforces them is in candidates.validators.ts (shared by browser and server).
 */

export const IDENTITY_FIELDS = [
  'first_name',
  'last_name',
  'middle_name',
  'title',
  'school_code',
  'date_of_birth',
  'candidate_category',
  'course_header',
  'marital_status',
  'gender',
  'nationality',
] as const;

export const CERTIFICATE_FIELDS = [
  'certificate_evaluated',
  'certificate_evaluated_2',
  'year_of_certificate_evaluated',
  'year_of_certificate_evaluated_2',
  'exam_number_1',
  'exam_number_2',
  'exam_month',
  'exam_month_2',
] as const;

export const SUBJECT_FIELDS = [
  'english',
  'biology',
  'health_science',
  'chemistry',
  'mathematics',
  'geography',
  'economics',
  'food_and_nutrition',
  'accounting',
  'commerce',
  'physics',
  'technical_drawing',
  'integrated_science',
  'general_science',
  'agric',
  'reg_nurse',
  'reg_midwife',
  'yoruba',
  'igbo',
  'hausa',
  'history',
  'religious_knowledge',
  'government',
  'literature',
] as const;

export const UPLOAD_FIELDS = [
  'photo',
  'birth_certificate_upload',
  'marriage_certificate_upload',
  'olevel_certificate_upload',
  'olevel_2_certificate_upload',
  'fn_image_upload',
  'phn_certificate_upload',
  'phn_2_certificate_upload',
  'nd_certificate_upload',
  'hnd_certificate_upload',
] as const;

type IdentityField = (typeof IDENTITY_FIELDS)[number];
type CertificateField = (typeof CERTIFICATE_FIELDS)[number];
export type SubjectField = (typeof SUBJECT_FIELDS)[number];
export type UploadField = (typeof UPLOAD_FIELDS)[number];
export type TextField = IdentityField | CertificateField | SubjectField;

/** The spec's validation messages (section 5), word for word, odd wording included. */
export const CANDIDATE_MESSAGES = {
  firstNameRequired: 'First Name is required',
  firstNameShort: 'First name must be at least 3 characters',
  lastNameRequired: 'Last Name is required',
  lastNameShort: 'Last name must be at least 3 characters',
  schoolRequired: 'Candidate School is required',
  dateOfBirthRequired: 'Date of birth is required',
  dateOfBirthInvalid: 'Enter validate date of birth (DD/MM/YYYY)',
  categoryRequired: 'Candidate category is required',
  courseHeaderRequired: 'Course header is required',
  maritalStatusRequired: 'Marital Status is required',
  nationalityRequired: 'Nationality is required',
  genderRequired: 'Gender is required',
  photoRequired: 'Candidate profile photo is required',
  certificateRequired: 'Certificate is required',
  examYearRequired: 'Exam Year is required',
  examNumberRequired: 'Exam Number is required',
  examMonthRequired: 'Exam month is required',
  foodHygieneRequired: 'Waheb Food Hygiene Certificate is required',
  ndCertificateRequired: 'WAHEB ND Certificate is required',
  fileTooLarge: 'File is too large',
} as const;

/** Messages of the rules the spec does not show, which the server (and the form, where it can) adds. */
export const CANDIDATE_RULE_MESSAGES = {
  choose: 'Choose one of the options',
  tooLong: 'This is too long',
  yearInvalid: 'Enter a four-digit year',
  photoNotImage: 'The photo must be a JPEG, PNG or WebP image',
  certificateNotImageOrPdf: 'The certificate must be an image (JPEG, PNG, WebP) or a PDF',
  schoolUnknown: 'There is no training school with this code',
  courseHeaderUnknown: 'There is no course header with this code',
  indexingClosed: 'Indexing is closed for this course header',
  schoolSuspended: 'This training school is suspended and cannot index candidates',
  duplicate: 'This candidate is already indexed at this school for this course header',
  nationalityUnknown: 'Choose a nationality from the list',
  dateOfBirthFuture: 'The date of birth cannot be in the future',
  /** A school admin changing reg_status while the course header's registration_status is not open. */
  registrationClosed: 'Registration is closed for this course header',
  /** A school admin of a suspended school changing reg_status. */
  registrationSchoolSuspended: 'Your training school is suspended, so its candidates cannot be registered',
} as const;

/** Course headers whose candidates need no prior certificate (spec section 5). */
export function needsPriorCertificate(courseHeader: string | null | undefined): boolean {
  return !(SPECIAL_COURSE_HEADERS as readonly string[]).includes(courseHeader ?? '');
}

/** The certificate a course header's candidates must upload besides the photo (spec section 5). */
const COURSE_HEADER_UPLOADS: Readonly<Record<string, UploadField>> = {
  A4: 'fn_image_upload',
  B5: 'nd_certificate_upload',
};

/** The upload this course header requires, if it has one of its own. */
export function requiredUploadOf(courseHeader: string | null | undefined): UploadField | null {
  return Object.hasOwn(COURSE_HEADER_UPLOADS, courseHeader ?? '')
    ? COURSE_HEADER_UPLOADS[courseHeader!]
    : null;
}

/**
 * The special rules of section 5 that apply to a course header, in words: the candidate validator
 * enforces them through needsPriorCertificate and requiredUploadOf, and the course headers page shows
 * them from here, so the two cannot differ.
 */
export function courseHeaderRules(courseHeader: string): string[] {
  const rules: string[] = [];
  if (!needsPriorCertificate(courseHeader)) {
    rules.push(
      'No prior certificate needed (certificate, exam year, exam number and exam month are optional)',
    );
  }
  const upload = requiredUploadOf(courseHeader);
  if (upload) rules.push(`${UPLOAD_LABELS[upload]} upload required`);
  return rules;
}

export const TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Dr'] as const;

export const CANDIDATE_CATEGORIES = [
  { code: 'fresh', label: 'Fresh candidate' },
  { code: 'transfer', label: 'Transfer from another school' },
  { code: 'foreign', label: 'Trained outside Nigeria' },
] as const;

export const CERTIFICATES = ['WASSCE', 'NECO SSCE', 'NABTEB', 'GCE O-Level', 'Teachers Grade II'] as const;

export const EXAM_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** WAEC and NECO grades, best first. */
export const GRADES = ['A1', 'B2', 'B3', 'C4', 'C5', 'C6', 'D7', 'E8', 'F9'] as const;

/** reg_status of a candidate for the current exam (spec section 4: it can be updated in the list). */
export const REG_STATUSES = ['unregistered', 'registered'] as const;
export type RegStatus = (typeof REG_STATUSES)[number];

export const SUBJECT_LABELS: Record<SubjectField, string> = {
  english: 'English',
  biology: 'Biology',
  health_science: 'Health Science',
  chemistry: 'Chemistry',
  mathematics: 'Mathematics',
  geography: 'Geography',
  economics: 'Economics',
  food_and_nutrition: 'Food and Nutrition',
  accounting: 'Accounting',
  commerce: 'Commerce',
  physics: 'Physics',
  technical_drawing: 'Technical Drawing',
  integrated_science: 'Integrated Science',
  general_science: 'General Science',
  agric: 'Agricultural Science',
  reg_nurse: 'Registered Nurse',
  reg_midwife: 'Registered Midwife',
  yoruba: 'Yoruba',
  igbo: 'Igbo',
  hausa: 'Hausa',
  history: 'History',
  religious_knowledge: 'Religious Knowledge',
  government: 'Government',
  literature: 'Literature',
};

export const UPLOAD_LABELS: Record<UploadField, string> = {
  photo: 'Candidate profile photo',
  birth_certificate_upload: 'Birth certificate',
  marriage_certificate_upload: 'Marriage certificate',
  olevel_certificate_upload: "O'Level certificate",
  olevel_2_certificate_upload: "Second O'Level certificate",
  fn_image_upload: 'Food hygiene certificate',
  phn_certificate_upload: 'PHN certificate',
  phn_2_certificate_upload: 'Second PHN certificate',
  nd_certificate_upload: 'ND certificate',
  hnd_certificate_upload: 'HND certificate',
};

/** A candidate as the lists show it. */
export interface CandidateRow {
  id: number;
  candidate_index: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  school: { id: number; code: string; name: string };
  course_header: { code: string; title: string; registration_status: string };
  year: number;
  reg_status: RegStatus;
  verified: boolean;
  created_at: string;
  /**
   * Registered lists only: whether the diet's registration fee is paid for this registered candidate
   * (registration counts as complete only then), or null when the diet charges none for them.
   */
  registration_fee?: 'paid' | 'unpaid' | null;
}

/** A whole candidate record: the form's text fields, the stored uploads' URLs, and the row's facts. */
export type CandidateRecord = CandidateRow & {
  fields: Record<TextField, string | null>;
  uploads: Partial<Record<UploadField, { url: string; content_type: string; size: number }>>;
};

/** The form sends this with every submission; a retry with the same key returns the first result. */
export const SUBMISSION_KEY_FIELD = 'submission_key';

/**
 * The index number: `WHB/<2-digit year>/<course header>/<6-digit sequence>`, e.g. WHB/26/A4/000123.
 * The sequence is one database sequence for the whole board, so a number is never given twice, even
 * after a candidate is removed.
 */
export function formatCandidateIndex(year: number, courseHeader: string, sequence: number): string {
  return `WHB/${String(year % 100).padStart(2, '0')}/${courseHeader}/${String(sequence).padStart(6, '0')}`;
}

/** What the candidate endpoints answer besides field messages. */
export const CANDIDATE_OUTCOME_MESSAGES = {
  indexed: 'Candidate indexed.',
  updated: 'Candidate updated.',
  /** 404: no such candidate, or none this caller may see (another school's). */
  notFound: 'There is no such candidate.',
  verified: 'The candidate is marked as verified.',
  unverified: 'The candidate is marked as unverified.',
  registered: 'The candidate is registered.',
  unregistered: 'The candidate is unregistered.',
} as const;

/** The longest search text the candidate lists take. */
export const CANDIDATE_SEARCH_MAX = 100;

/** The pickers' choices (candidates.endpoints.ts `formOptions`; nationalities come from the nationality call). */
export interface CandidateFormOptions {
  schools: { code: string; name: string; status: string }[];
  course_headers: { code: string; title: string; indexing_status: string; registration_status: string }[];
}

/** The board's notification when a school admin registers candidates (grouped per school and hour). */
export const CANDIDATES_REGISTERED_KIND = 'candidates.registered';
