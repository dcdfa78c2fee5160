import { and, count, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE_MESSAGES as M,
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  SUBMISSION_KEY_FIELD,
  UPLOAD_FIELDS,
  type CandidateRecord,
} from '../../contract/candidates';
import { UPLOAD_LIMIT_BYTES } from '../../contract/constants';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, candidates, courseHeaders, files, trainingSchools } from '../../server/db/schema';
import { boardYear as indexingYear } from '../../server/boardDate';
import {
  candidateForm,
  GIF,
  JPEG,
  PDF,
  PNG,
  pngOfSize,
  storedUploads,
  text,
  uniqueFirstName,
  userIdOf,
  VALID_CANDIDATE,
  WEBP,
  type FilePart,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * POST /api/admin/candidates: every rule of the spec's validation table through the server (the same
 * validator and messages as the browser), the checks only the server can make, idempotent retries, the
 * index number, and nothing stored when anything fails.
 */

let t: TestPortal;
let admin: string;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
});
afterAll(() => t?.close());

const post = (form: FormData, token = admin) =>
  t.request('POST', CANDIDATE_ENDPOINTS.create.path, { token, form });

/** A form every rule accepts, for a person no other test indexes. */
const fresh = (
  fields: Record<string, string | undefined> = {},
  uploads?: Record<string, FilePart | undefined>,
) => candidateForm({ first_name: uniqueFirstName(), ...fields }, uploads);

const candidateCount = async () => (await db().select({ total: count() }).from(candidates))[0].total;
const fileCount = async () => (await db().select({ total: count() }).from(files))[0].total;

describe('indexing a candidate', () => {
  it('stores the record and its uploads, and answers the whole record with its index number', async () => {
    const first = uniqueFirstName('Chiamaka');
    const response = await post(
      candidateForm(
        { first_name: `  ${first} `, hausa: 'A1', exam_number_2: '', title: '' },
        {
          photo: { bytes: JPEG, name: 'me.jpg', type: 'image/jpeg' },
          birth_certificate_upload: { bytes: PDF, name: 'birth.pdf', type: 'application/pdf' },
          olevel_certificate_upload: { bytes: WEBP, name: 'waec.webp', type: 'image/webp' },
          marriage_certificate_upload: {
            bytes: new Uint8Array(0),
            name: '',
            type: 'application/octet-stream',
          },
        },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.message).toBe(O.indexed);
    const record = response.body.data as CandidateRecord;
    const yy = String(indexingYear() % 100).padStart(2, '0');
    expect(record).toMatchObject({
      id: expect.any(Number),
      candidate_index: expect.stringMatching(new RegExp(`^WHB/${yy}/A1/\\d{6}$`)),
      first_name: first,
      middle_name: 'Ifeoma',
      last_name: 'Okonkwo',
      school: { id: expect.any(Number), code: 'SHT-IB', name: 'School of Health Technology, Ibadan' },
      course_header: {
        code: 'A1',
        title: 'Community Health Extension Worker (CHEW)',
        registration_status: 'open',
      },
      year: indexingYear(),
      reg_status: 'unregistered',
      verified: false,
      created_at: expect.any(String),
    });
    expect(record.fields).toMatchObject({
      ...VALID_CANDIDATE,
      first_name: first,
      hausa: 'A1',
      // Empty inputs are not given: stored as nothing.
      title: null,
      exam_number_2: null,
      igbo: null,
    });
    expect(Object.keys(record.uploads).sort()).toEqual(
      ['birth_certificate_upload', 'olevel_certificate_upload', 'photo'].sort(),
    );
    expect(record.uploads.photo).toEqual({
      url: expect.stringMatching(/^\/files\/candidates\/[A-Za-z0-9_-]{24}\.jpg$/),
      content_type: 'image/jpeg',
      size: JPEG.byteLength,
    });
    expect(record.uploads.birth_certificate_upload).toMatchObject({ content_type: 'application/pdf' });
    expect(record.uploads.birth_certificate_upload!.url).toMatch(/\.pdf$/);
    expect(record.uploads.olevel_certificate_upload).toMatchObject({ content_type: 'image/webp' });

    // Audited with the record as stored.
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'candidate.indexed'), eq(auditLog.entityId, String(record.id))));
    expect(entry).toMatchObject({ entity: 'candidate', actorId: await userIdOf(t, 'admin@example.org') });
    expect(entry.before).toBeNull();
    expect(entry.after).toEqual({
      candidate_index: record.candidate_index,
      fields: record.fields,
      uploads: {
        photo: record.uploads.photo!.url.replace('/files/', ''),
        birth_certificate_upload: record.uploads.birth_certificate_upload!.url.replace('/files/', ''),
        olevel_certificate_upload: record.uploads.olevel_certificate_upload!.url.replace('/files/', ''),
      },
    });
  });

  it('takes every upload field at once: the photo as an image, each certificate as an image or a PDF', async () => {
    const uploads: Record<string, FilePart> = {};
    for (const field of UPLOAD_FIELDS) {
      uploads[field] = field === 'photo' ? { bytes: PNG } : { bytes: PDF, type: 'application/pdf' };
    }
    const response = await post(fresh({}, uploads));
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data.uploads).sort()).toEqual([...UPLOAD_FIELDS].sort());
  });

  it('refuses school admins (403) and the signed out (401)', async () => {
    const school = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
    expect((await post(fresh(), school)).status).toBe(403);
    const anonymous = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, { form: fresh() });
    expect(anonymous.status).toBe(401);
  });
});

describe("the spec's validation table, through the server (422, word for word)", () => {
  const required: [string, string][] = [
    ['first_name', M.firstNameRequired],
    ['last_name', M.lastNameRequired],
    ['school_code', M.schoolRequired],
    ['date_of_birth', M.dateOfBirthRequired],
    ['candidate_category', M.categoryRequired],
    ['course_header', M.courseHeaderRequired],
    ['marital_status', M.maritalStatusRequired],
    ['nationality', M.nationalityRequired],
    ['gender', M.genderRequired],
  ];

  it.each(required)('%s left out: %s', async (field, message) => {
    const before = await candidateCount();
    const response = await post(fresh({ [field]: undefined }));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { [field]: [message] } });
    expect(await candidateCount()).toBe(before);
  });

  it.each(required)('%s sent empty (spaces): %s', async (field, message) => {
    const response = await post(fresh({ [field]: '   ' }));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ [field]: [message] });
  });

  it('photo left out: Candidate profile photo is required', async () => {
    const response = await post(fresh({}, {}));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ photo: [M.photoRequired] });
  });

  it('an empty photo input (a file part of 0 bytes) is no photo', async () => {
    const response = await post(fresh({}, { photo: { bytes: new Uint8Array(0), name: '' } }));
    expect(response.body.message).toEqual({ photo: [M.photoRequired] });
  });

  it('text sent in the photo field is no photo (never taken as a URL)', async () => {
    const response = await post(fresh({ photo: '/files/profile-photos/abcdefghijklmnopqrstuvwx.png' }, {}));
    expect(response.body.message).toEqual({ photo: [M.photoRequired] });
  });

  it('every required field left out at once: every message in one answer', async () => {
    const response = await post(candidateForm({}, {}, {}));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({
      first_name: [M.firstNameRequired],
      last_name: [M.lastNameRequired],
      school_code: [M.schoolRequired],
      date_of_birth: [M.dateOfBirthRequired],
      candidate_category: [M.categoryRequired],
      course_header: [M.courseHeaderRequired],
      marital_status: [M.maritalStatusRequired],
      nationality: [M.nationalityRequired],
      gender: [M.genderRequired],
      photo: [M.photoRequired],
      certificate_evaluated: [M.certificateRequired],
      year_of_certificate_evaluated: [M.examYearRequired],
      exam_number_1: [M.examNumberRequired],
      exam_month: [M.examMonthRequired],
    });
  });

  it.each([
    ['first_name', 'Ab', M.firstNameShort],
    ['last_name', 'Ok', M.lastNameShort],
    ['first_name', '  Ab  ', M.firstNameShort],
  ])('%s %j: %s', async (field, value, message) => {
    const response = await post(fresh({ [field]: value }));
    expect(response.body.message).toEqual({ [field]: [message] });
  });

  it.each(['12/04/2001', '2001-02-30', '2001-13-01', 'yesterday', '20010412'])(
    'date_of_birth %j: Enter validate date of birth (DD/MM/YYYY)',
    async (value) => {
      const response = await post(fresh({ date_of_birth: value }));
      expect(response.body.message).toEqual({ date_of_birth: [M.dateOfBirthInvalid] });
    },
  );

  const certificateFields: [string, string][] = [
    ['certificate_evaluated', M.certificateRequired],
    ['year_of_certificate_evaluated', M.examYearRequired],
    ['exam_number_1', M.examNumberRequired],
    ['exam_month', M.examMonthRequired],
  ];

  it.each(certificateFields)('course header A1 without %s: %s', async (field, message) => {
    const response = await post(fresh({ [field]: undefined }));
    expect(response.body.message).toEqual({ [field]: [message] });
  });

  const withoutCertificate = {
    certificate_evaluated: undefined,
    year_of_certificate_evaluated: undefined,
    exam_number_1: undefined,
    exam_month: undefined,
  };

  it.each([
    ['A4', { fn_image_upload: { bytes: PNG } }],
    ['A5', {}],
    ['B5', { nd_certificate_upload: { bytes: PDF, type: 'application/pdf' } }],
  ])('course header %s needs none of the four certificate fields', async (course, uploads) => {
    const response = await post(
      fresh({ course_header: course, ...withoutCertificate }, { photo: { bytes: PNG }, ...uploads }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data.course_header.code).toBe(course);
    expect(response.body.data.fields.certificate_evaluated).toBeNull();
  });

  it('A4 without fn_image_upload: Waheb Food Hygiene Certificate is required', async () => {
    const response = await post(fresh({ course_header: 'A4', ...withoutCertificate }));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ fn_image_upload: [M.foodHygieneRequired] });
  });

  it('B5 without nd_certificate_upload: WAHEB ND Certificate is required', async () => {
    const response = await post(fresh({ course_header: 'B5', ...withoutCertificate }));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ nd_certificate_upload: [M.ndCertificateRequired] });
  });

  it('A1 needs neither the food hygiene nor the ND certificate', async () => {
    const response = await post(fresh());
    expect(response.status).toBe(200);
  });

  it('a photo of 2,000,001 bytes: File is too large; nothing is stored', async () => {
    const [before, files] = [await candidateCount(), storedUploads(t)];
    const response = await post(fresh({}, { photo: { bytes: pngOfSize(UPLOAD_LIMIT_BYTES + 1) } }));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ photo: [M.fileTooLarge] });
    expect(await candidateCount()).toBe(before);
    expect(storedUploads(t)).toEqual(files);
  });

  it('a photo of exactly 2,000,000 bytes passes', async () => {
    const response = await post(fresh({}, { photo: { bytes: pngOfSize(UPLOAD_LIMIT_BYTES) } }));
    expect(response.status).toBe(200);
    expect(response.body.data.uploads.photo.size).toBe(UPLOAD_LIMIT_BYTES);
  });

  it.each(['birth_certificate_upload', 'fn_image_upload', 'nd_certificate_upload', 'hnd_certificate_upload'])(
    '%s of 2,000,001 bytes: File is too large',
    async (field) => {
      const response = await post(
        fresh({}, { photo: { bytes: PNG }, [field]: { bytes: pngOfSize(UPLOAD_LIMIT_BYTES + 1) } }),
      );
      expect(response.body.message).toEqual({ [field]: [M.fileTooLarge] });
    },
  );
});

describe('uploads are checked by their content, never by their name or type', () => {
  it.each([
    [
      'a text file named photo.png',
      { bytes: text('not an image at all'), name: 'photo.png', type: 'image/png' },
    ],
    ['a PDF', { bytes: PDF, name: 'photo.png', type: 'image/png' }],
    ['a GIF', { bytes: GIF, name: 'photo.gif', type: 'image/gif' }],
    [
      'an SVG',
      {
        bytes: text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        type: 'image/svg+xml',
      },
    ],
    ['HTML', { bytes: text('<!doctype html><script>alert(1)</script>'), name: 'x.jpg', type: 'image/jpeg' }],
  ])('photo: %s is refused', async (_name, photo) => {
    const [before, files] = [await candidateCount(), storedUploads(t)];
    const response = await post(fresh({}, { photo }));
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({ photo: [R.photoNotImage] });
    expect(await candidateCount()).toBe(before);
    expect(storedUploads(t)).toEqual(files);
  });

  it.each([
    [
      'a text file named scan.pdf',
      { bytes: text('just some text, not a scan'), name: 'scan.pdf', type: 'application/pdf' },
    ],
    ['a GIF', { bytes: GIF, type: 'image/gif' }],
  ])('certificate: %s is refused', async (_name, file) => {
    const response = await post(fresh({}, { photo: { bytes: PNG }, olevel_certificate_upload: file }));
    expect(response.body.message).toEqual({ olevel_certificate_upload: [R.certificateNotImageOrPdf] });
  });

  it('stores under a server-made name and the type found in the bytes', async () => {
    const response = await post(
      fresh({}, { photo: { bytes: PNG, name: '../../evil.html', type: 'text/html' } }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data.uploads.photo).toMatchObject({
      url: expect.stringMatching(/^\/files\/candidates\/[A-Za-z0-9_-]{24}\.png$/),
      content_type: 'image/png',
    });
  });
});

describe('what only the server can check', () => {
  beforeAll(async () => {
    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.code, 'SHT-KN'));
    await db().update(courseHeaders).set({ indexingStatus: 'closed' }).where(eq(courseHeaders.code, 'B4'));
  });

  it.each([
    ['school_code', 'NOPE-01', R.schoolUnknown],
    ['school_code', 'sht-ib', R.schoolUnknown],
    ['school_code', 'SHT-KN', R.schoolSuspended],
    ['course_header', 'Z9', R.courseHeaderUnknown],
    ['course_header', 'B4', R.indexingClosed],
    ['nationality', 'XX', R.nationalityUnknown],
  ])('%s %j: %s', async (field, value, message) => {
    const before = await candidateCount();
    const response = await post(fresh({ [field]: value }));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { [field]: [message] } });
    expect(await candidateCount()).toBe(before);
  });

  it('the same person at the same school for the same course header, in any case: a duplicate', async () => {
    const first = uniqueFirstName('Ngozi');
    expect(
      (await post(candidateForm({ first_name: first, last_name: 'Eze', date_of_birth: '1999-01-02' })))
        .status,
    ).toBe(200);
    const again = await post(
      candidateForm({ first_name: first.toUpperCase(), last_name: ' eZE ', date_of_birth: '1999-01-02' }),
    );
    expect(again.status).toBe(422);
    expect(again.body.message).toEqual({ first_name: [R.duplicate] });

    // Another date of birth, school or course header is another candidate.
    for (const other of [
      { date_of_birth: '1999-01-03' },
      { school_code: 'CHT-CA' },
      { course_header: 'A2' },
    ]) {
      const response = await post(
        candidateForm({ first_name: first, last_name: 'Eze', date_of_birth: '1999-01-02', ...other }),
      );
      expect(response.status, JSON.stringify(other)).toBe(200);
    }
  });

  it('answers every problem it can find in one 422, the server-only ones beside the validator’s', async () => {
    const response = await post(
      candidateForm(
        { first_name: undefined, school_code: 'NOPE-02', nationality: 'XX', exam_month: undefined },
        { photo: { bytes: text('hello'), type: 'image/png' } },
      ),
    );
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({
      first_name: [M.firstNameRequired],
      school_code: [R.schoolUnknown],
      nationality: [R.nationalityUnknown],
      exam_month: [M.examMonthRequired],
      photo: [R.photoNotImage],
    });
  });

  it('reports a duplicate even when other fields are wrong', async () => {
    const first = uniqueFirstName('Emeka');
    await post(candidateForm({ first_name: first }));
    const response = await post(candidateForm({ first_name: first, gender: undefined }));
    expect(response.body.message).toEqual({ first_name: [R.duplicate], gender: [M.genderRequired] });
  });
});

describe('retries never duplicate (submission_key)', () => {
  it('the same key twice: one candidate, the same answer and index number', async () => {
    const key = crypto.randomUUID();
    const form = () =>
      fresh({ first_name: 'Retried', last_name: uniqueFirstName('Once'), [SUBMISSION_KEY_FIELD]: key });
    const first = await post(form());
    expect(first.status).toBe(200);
    const [candidatesBefore, filesBefore, stored] = [
      await candidateCount(),
      await fileCount(),
      storedUploads(t),
    ];
    const second = await post(form());
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await candidateCount()).toBe(candidatesBefore);
    expect(await fileCount()).toBe(filesBefore);
    expect(storedUploads(t)).toEqual(stored);
  });

  it('the key wins over the body: a retry whose first answer was lost gets that first candidate', async () => {
    const key = crypto.randomUUID();
    const first = await post(fresh({ [SUBMISSION_KEY_FIELD]: key }));
    const other = await post(fresh({ [SUBMISSION_KEY_FIELD]: key, last_name: 'Different' }));
    expect(other.status).toBe(200);
    expect(other.body.data.id).toBe(first.body.data.id);
    expect(other.body.data.last_name).toBe('Okonkwo');
  });

  it('the same key sent several times at once: one candidate, and no file left over', async () => {
    const key = crypto.randomUUID();
    const last = uniqueFirstName('Race');
    const [stored, filesBefore] = [storedUploads(t).length, await fileCount()];
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(fresh({ last_name: last, [SUBMISSION_KEY_FIELD]: key }))),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    const rows = await db().select().from(candidates).where(eq(candidates.submissionKey, key));
    expect(rows).toHaveLength(1);
    // The photo and its print photo (server/candidates/printPhoto.ts), once.
    expect(await fileCount()).toBe(filesBefore + 2);
    expect(storedUploads(t).length).toBe(stored + 2);
  });

  it('a key whose first submission was refused indexes the corrected one', async () => {
    const key = crypto.randomUUID();
    const refused = await post(fresh({ [SUBMISSION_KEY_FIELD]: key, gender: undefined }));
    expect(refused.status).toBe(422);
    const corrected = await post(fresh({ [SUBMISSION_KEY_FIELD]: key }));
    expect(corrected.status).toBe(200);
  });

  it('without a key, the duplicate rule still stops a second copy of the same person', async () => {
    const last = uniqueFirstName('Noretry');
    const form = () => candidateForm({ first_name: 'Keyless', last_name: last });
    expect((await post(form())).status).toBe(200);
    expect((await post(form())).body.message).toEqual({ first_name: [R.duplicate] });
  });
});

describe('index numbers', () => {
  it('are unique and increasing, from one sequence for every course header', async () => {
    const numbers: string[] = [];
    for (const course of ['A1', 'A2', 'A1', 'B1']) {
      const response = await post(fresh({ course_header: course }));
      expect(response.status).toBe(200);
      numbers.push(response.body.data.candidate_index);
      expect(response.body.data.candidate_index).toMatch(new RegExp(`/${course}/\\d{6}$`));
    }
    const sequence = numbers.map((n) => Number(n.split('/')[3]));
    for (let i = 1; i < sequence.length; i++) expect(sequence[i]).toBeGreaterThan(sequence[i - 1]);
    const all = await db().select({ index: candidates.candidateIndex }).from(candidates);
    expect(new Set(all.map((row) => row.index)).size).toBe(all.length);
  });

  it('are never given twice: a number taken by a failed submission is skipped, not reused', async () => {
    const [latest] = await db()
      .select({ index: candidates.candidateIndex })
      .from(candidates)
      .orderBy(desc(candidates.id))
      .limit(1);
    await db().execute(sql`select nextval('candidate_index_seq')`);
    const response = await post(fresh());
    expect(Number(response.body.data.candidate_index.split('/')[3])).toBe(
      Number(latest.index.split('/')[3]) + 2,
    );
  });
});

describe('a failed submission stores nothing', () => {
  it('removes the stored uploads when the transaction fails', async () => {
    const [before, filesBefore, stored] = [await candidateCount(), await fileCount(), storedUploads(t)];
    // A real failure inside the transaction: the index number's sequence is not there.
    await db().execute(sql`alter sequence candidate_index_seq rename to candidate_index_seq_away`);
    try {
      const response = await post(
        fresh(
          {},
          { photo: { bytes: PNG }, birth_certificate_upload: { bytes: PDF, type: 'application/pdf' } },
        ),
      );
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, message: expect.any(String) });
    } finally {
      await db().execute(sql`alter sequence candidate_index_seq_away rename to candidate_index_seq`);
    }
    expect(await candidateCount()).toBe(before);
    expect(await fileCount()).toBe(filesBefore);
    expect(storedUploads(t)).toEqual(stored);
  });
});
