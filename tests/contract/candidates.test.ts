import { errors } from '@vinejs/vine';
import { describe, expect, it } from 'vitest';
import {
  candidateValidator,
  normaliseCandidateInput,
  withStoredUploads,
} from '../../contract/candidates.validators';

/**
 * The candidate form's validation table, spec section 5, through the one validator browser and server
 * both run: `candidateValidator.validate(normaliseCandidateInput(values))`. Every message below is
 * copied by hand from the spec, not imported from the contract, so a changed constant fails here.
 */

type Values = Record<string, unknown>;
type FieldErrors = Record<string, string[]>;

const LIMIT = 2_000_000;
const file = (bytes: number, name = 'upload.png', type = 'image/png') =>
  new File([new Uint8Array(bytes)], name, { type });

/** A candidate that passes: course header A1, which needs the four prior-certificate fields. */
const valid = (): Values => ({
  first_name: 'Adaeze',
  last_name: 'Okafor',
  middle_name: '',
  school_code: 'SHT-IB',
  date_of_birth: '2001-02-03',
  candidate_category: 'fresh',
  course_header: 'A1',
  marital_status: 'S',
  gender: 'female',
  nationality: 'NG',
  photo: file(1024, 'photo.png'),
  certificate_evaluated: 'WASSCE',
  year_of_certificate_evaluated: '2019',
  exam_number_1: '4250101001',
  exam_month: 'June',
  english: 'B3',
  biology: 'C4',
});

/** Every field's messages, or {} when the values pass. */
async function errorsOf(values: Values): Promise<FieldErrors> {
  try {
    await candidateValidator.validate(normaliseCandidateInput(values));
    return {};
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error;
    const found: FieldErrors = {};
    for (const { field, message } of error.messages as { field: string; message: string }[]) {
      (found[field] ??= []).push(message);
    }
    return found;
  }
}

const without = (values: Values, ...fields: string[]) => {
  const copy = { ...values };
  for (const field of fields) delete copy[field];
  return copy;
};

const CERTIFICATE_FIELDS = [
  'certificate_evaluated',
  'year_of_certificate_evaluated',
  'exam_number_1',
  'exam_month',
];

/** The ten upload fields of spec section 3. */
const UPLOADS = [
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
];

it('passes the valid candidate the other cases start from', async () => {
  expect(await errorsOf(valid())).toEqual({});
});

describe('required fields (spec section 5, the table)', () => {
  const REQUIRED: [field: string, message: string][] = [
    ['first_name', 'First Name is required'],
    ['last_name', 'Last Name is required'],
    ['school_code', 'Candidate School is required'],
    ['date_of_birth', 'Date of birth is required'],
    ['candidate_category', 'Candidate category is required'],
    ['course_header', 'Course header is required'],
    ['marital_status', 'Marital Status is required'],
    ['nationality', 'Nationality is required'],
    ['gender', 'Gender is required'],
  ];

  it.each(REQUIRED)('%s left empty: %j', async (field, message) => {
    expect(await errorsOf({ ...valid(), [field]: '' })).toEqual({ [field]: [message] });
    expect(await errorsOf({ ...valid(), [field]: '   ' })).toEqual({ [field]: [message] });
    expect(await errorsOf(without(valid(), field))).toEqual({ [field]: [message] });
  });

  it("photo missing: 'Candidate profile photo is required', and an empty file counts as missing", async () => {
    const message = 'Candidate profile photo is required';
    expect(await errorsOf(without(valid(), 'photo'))).toEqual({ photo: [message] });
    expect(await errorsOf({ ...valid(), photo: file(0, 'empty.png') })).toEqual({ photo: [message] });
    expect(await errorsOf({ ...valid(), photo: '' })).toEqual({ photo: [message] });
  });

  it('a form with nothing filled in gets every required message at once', async () => {
    expect(await errorsOf({})).toEqual({
      first_name: ['First Name is required'],
      last_name: ['Last Name is required'],
      school_code: ['Candidate School is required'],
      date_of_birth: ['Date of birth is required'],
      candidate_category: ['Candidate category is required'],
      course_header: ['Course header is required'],
      marital_status: ['Marital Status is required'],
      nationality: ['Nationality is required'],
      gender: ['Gender is required'],
      photo: ['Candidate profile photo is required'],
      certificate_evaluated: ['Certificate is required'],
      year_of_certificate_evaluated: ['Exam Year is required'],
      exam_number_1: ['Exam Number is required'],
      exam_month: ['Exam month is required'],
    });
  });
});

describe('names: at least 3 characters', () => {
  it.each([
    ['first_name', 'First name must be at least 3 characters'],
    ['last_name', 'Last name must be at least 3 characters'],
  ])('%s of 2 characters: %j; 3 characters pass', async (field, message) => {
    expect(await errorsOf({ ...valid(), [field]: 'Ab' })).toEqual({ [field]: [message] });
    // Spaces around a name do not count towards its length.
    expect(await errorsOf({ ...valid(), [field]: '  Ab  ' })).toEqual({ [field]: [message] });
    expect(await errorsOf({ ...valid(), [field]: 'Abc' })).toEqual({});
  });
});

describe('date_of_birth: a real date in year-month-day form', () => {
  const INVALID = 'Enter validate date of birth (DD/MM/YYYY)';

  it.each([
    ['2001-02-30', 'no 30 February'],
    ['30/02/2001', 'day-month-year'],
    ['03/02/2001', 'day-month-year, a real date'],
    ['2001-13-01', 'no month 13'],
    ['1900-02-29', '1900 was no leap year'],
    ['2001-2-3', 'month and day need two digits'],
    ['yesterday', 'not a date'],
  ])('%j (%s): %j', async (value) => {
    expect(await errorsOf({ ...valid(), date_of_birth: value })).toEqual({ date_of_birth: [INVALID] });
  });

  it.each(['2001-02-03', '2000-02-29', ' 2001-02-03 '])('%j passes', async (value) => {
    expect(await errorsOf({ ...valid(), date_of_birth: value })).toEqual({});
  });

  it("empty: 'Date of birth is required'", async () => {
    expect(await errorsOf({ ...valid(), date_of_birth: '' })).toEqual({
      date_of_birth: ['Date of birth is required'],
    });
  });
});

describe('the four prior-certificate fields: required unless course_header is A4, A5 or B5', () => {
  const MESSAGES: [field: string, message: string][] = [
    ['certificate_evaluated', 'Certificate is required'],
    ['year_of_certificate_evaluated', 'Exam Year is required'],
    ['exam_number_1', 'Exam Number is required'],
    ['exam_month', 'Exam month is required'],
  ];
  const OTHER_HEADERS = ['A1', 'A2', 'B1', 'B4', 'C1'];

  describe.each(OTHER_HEADERS)('course header %s', (header) => {
    it.each(MESSAGES)('%s missing: %j', async (field, message) => {
      const values = { ...valid(), course_header: header };
      expect(await errorsOf(without(values, field))).toEqual({ [field]: [message] });
      expect(await errorsOf({ ...values, [field]: '' })).toEqual({ [field]: [message] });
    });

    it('all four missing: all four messages', async () => {
      expect(await errorsOf(without({ ...valid(), course_header: header }, ...CERTIFICATE_FIELDS))).toEqual(
        Object.fromEntries(MESSAGES.map(([field, message]) => [field, [message]])),
      );
    });
  });

  /** What A4 and B5 need of their own, so only the four fields' rule is under test. */
  const OWN_UPLOAD: Record<string, Values> = {
    A4: { fn_image_upload: file(1024, 'hygiene.pdf', 'application/pdf') },
    A5: {},
    B5: { nd_certificate_upload: file(1024, 'nd.pdf', 'application/pdf') },
  };

  it.each(['A4', 'A5', 'B5'])('course header %s: none of the four is needed', async (header) => {
    const values = { ...valid(), course_header: header, ...OWN_UPLOAD[header] };
    expect(await errorsOf(without(values, ...CERTIFICATE_FIELDS))).toEqual({});
    expect(
      await errorsOf({ ...values, ...Object.fromEntries(CERTIFICATE_FIELDS.map((field) => [field, ''])) }),
    ).toEqual({});
  });
});

describe('course header specifics', () => {
  const HYGIENE = 'Waheb Food Hygiene Certificate is required';
  const ND = 'WAHEB ND Certificate is required';
  const special = (header: string, extra: Values = {}) => ({
    ...without(valid(), ...CERTIFICATE_FIELDS),
    course_header: header,
    ...extra,
  });

  it(`A4 needs the food hygiene upload (fn_image_upload): '${HYGIENE}'`, async () => {
    expect(await errorsOf(special('A4'))).toEqual({ fn_image_upload: [HYGIENE] });
    expect(await errorsOf(special('A4', { fn_image_upload: file(0, 'empty.pdf') }))).toEqual({
      fn_image_upload: [HYGIENE],
    });
    expect(await errorsOf(special('A4', { fn_image_upload: '' }))).toEqual({ fn_image_upload: [HYGIENE] });
    expect(await errorsOf(special('A4', { fn_image_upload: file(1024) }))).toEqual({});
  });

  it(`B5 needs the ND certificate upload (nd_certificate_upload): '${ND}'`, async () => {
    expect(await errorsOf(special('B5'))).toEqual({ nd_certificate_upload: [ND] });
    expect(await errorsOf(special('B5', { nd_certificate_upload: file(0, 'empty.pdf') }))).toEqual({
      nd_certificate_upload: [ND],
    });
    expect(await errorsOf(special('B5', { nd_certificate_upload: '' }))).toEqual({
      nd_certificate_upload: [ND],
    });
    expect(await errorsOf(special('B5', { nd_certificate_upload: file(1024) }))).toEqual({});
  });

  it('each header needs only its own upload: A4 not the ND certificate, B5 not food hygiene, A5 and A1 neither', async () => {
    expect(await errorsOf(special('A4', { fn_image_upload: file(1024) }))).toEqual({});
    expect(await errorsOf(special('B5', { nd_certificate_upload: file(1024) }))).toEqual({});
    expect(await errorsOf(special('A5'))).toEqual({});
    expect(await errorsOf(valid())).toEqual({});
  });
});

describe("every upload: at most 2,000,000 bytes, else 'File is too large'", () => {
  it.each(UPLOADS)('%s: 2,000,001 bytes is too large, 2,000,000 pass', async (field) => {
    expect(await errorsOf({ ...valid(), [field]: file(LIMIT + 1) })).toEqual({
      [field]: ['File is too large'],
    });
    expect(await errorsOf({ ...valid(), [field]: file(LIMIT) })).toEqual({});
  });

  it.each(UPLOADS.filter((field) => field !== 'photo'))(
    '%s is optional for course header A1, and an empty file counts as none',
    async (field) => {
      expect(await errorsOf({ ...valid(), [field]: file(0) })).toEqual({});
      expect(await errorsOf({ ...valid(), [field]: '' })).toEqual({});
    },
  );

  it('every upload too large at once: one message on each', async () => {
    const values = { ...valid(), ...Object.fromEntries(UPLOADS.map((field) => [field, file(LIMIT + 1)])) };
    expect(await errorsOf(values)).toEqual(
      Object.fromEntries(UPLOADS.map((field) => [field, ['File is too large']])),
    );
  });
});

describe('an edit: a stored upload satisfies its rule (issue 22)', () => {
  /** What browser and server validate on an edit: the form's values, with the record's stored uploads. */
  const editErrorsOf = async (values: Values, stored: string[]): Promise<FieldErrors> => {
    try {
      await candidateValidator.validate(
        withStoredUploads(normaliseCandidateInput(values), stored as never[]),
      );
      return {};
    } catch (error) {
      if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error;
      const found: FieldErrors = {};
      for (const { field, message } of error.messages as { field: string; message: string }[]) {
        (found[field] ??= []).push(message);
      }
      return found;
    }
  };
  const noCertificates = (values: Values) => without(values, ...CERTIFICATE_FIELDS);

  it('the photo: an empty file input passes when a photo is stored, and is refused when none is', async () => {
    const edited = { ...valid(), photo: file(0, '') };
    expect(await editErrorsOf(edited, ['photo'])).toEqual({});
    expect(await editErrorsOf(edited, [])).toEqual({ photo: ['Candidate profile photo is required'] });
    expect(await editErrorsOf(edited, ['birth_certificate_upload'])).toEqual({
      photo: ['Candidate profile photo is required'],
    });
  });

  it("A4's and B5's certificates: a stored one passes, none stored keeps the spec's message", async () => {
    const a4 = { ...noCertificates(valid()), course_header: 'A4', fn_image_upload: file(0, '') };
    expect(await editErrorsOf(a4, ['fn_image_upload'])).toEqual({});
    expect(await editErrorsOf(a4, [])).toEqual({
      fn_image_upload: ['Waheb Food Hygiene Certificate is required'],
    });
    const b5 = { ...noCertificates(valid()), course_header: 'B5', nd_certificate_upload: '' };
    expect(await editErrorsOf(b5, ['nd_certificate_upload'])).toEqual({});
    expect(await editErrorsOf(b5, [])).toEqual({
      nd_certificate_upload: ['WAHEB ND Certificate is required'],
    });
  });

  it('a replacement is still checked: too large is refused even with a file stored', async () => {
    expect(await editErrorsOf({ ...valid(), photo: file(LIMIT + 1) }, ['photo'])).toEqual({
      photo: ['File is too large'],
    });
  });
});
