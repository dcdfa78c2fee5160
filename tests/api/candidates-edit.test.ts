import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE_MESSAGES as M,
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  type CandidateRecord,
} from '../../contract/candidates';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import { candidates, courseHeaders, files, trainingSchools } from '../../server/db/schema';
import {
  addUser,
  candidateForm,
  fetchRaw,
  JPEG,
  lastAudit,
  PDF,
  PNG,
  pngOfSize,
  storedUploads,
  text,
  uniqueFirstName,
  userIdOf,
  type FilePart,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Reading and editing a candidate (GET and POST /api/admin/candidates/:id), the board's verification
 * mark, and who may see a candidate's uploads at GET /files/*.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;

beforeAll(async () => {
  t = await startTestPortal();
  tokens.admin = (await issueToken(db(), await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (await issueToken(db(), await userIdOf(t, 'school1@example.org'), 60)).token;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
});
afterAll(() => t?.close());

async function indexed(
  fields: Record<string, string | undefined> = {},
  uploads: Record<string, FilePart | undefined> = { photo: { bytes: PNG } },
): Promise<CandidateRecord> {
  const response = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
    token: tokens.admin,
    form: candidateForm({ first_name: uniqueFirstName(), ...fields }, uploads),
  });
  if (response.status !== 200) throw new Error(`index ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** The edit as the SPA sends it: the whole form again, with `_method=PUT`, and the record's own values. */
const edit = (
  record: CandidateRecord,
  fields: Record<string, string | undefined> = {},
  uploads: Record<string, FilePart | undefined> = {},
  token = tokens.admin,
) =>
  t.request('POST', fillPath(CANDIDATE_ENDPOINTS.update.path, { id: record.id }), {
    token,
    form: candidateForm(
      { _method: 'PUT', ...fields },
      uploads,
      Object.fromEntries(Object.entries(record.fields).filter(([, value]) => value !== null)) as Record<
        string,
        string
      >,
    ),
  });

const read = (id: number | string, token = tokens.admin) =>
  t.request('GET', `/api/admin/candidates/${id}`, { token });

const keyOf = (url: string) => url.replace(/^\/files\//, '');

describe('GET /api/admin/candidates/:id', () => {
  it('answers the whole record: row facts, every text field, and the uploads as /files/ URLs', async () => {
    const record = await indexed(
      {},
      { photo: { bytes: PNG }, hnd_certificate_upload: { bytes: PDF, type: 'application/pdf' } },
    );
    const response = await read(record.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: record });
    expect(Object.keys(record.fields)).toHaveLength(11 + 8 + 24);
    expect(record.uploads.hnd_certificate_upload).toEqual({
      url: expect.stringMatching(/^\/files\/candidates\/.+\.pdf$/),
      content_type: 'application/pdf',
      size: PDF.byteLength,
    });
  });

  it.each(['999999', '0', 'abc', '1e3', '-1', '99999999999'])(
    '%s: 404 There is no such candidate.',
    async (id) => {
      const response = await read(id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: O.notFound });
    },
  );

  it('is for admins only', async () => {
    const record = await indexed();
    expect((await read(record.id, tokens.school1)).status).toBe(403);
    expect((await t.request('GET', fillPath(CANDIDATE_ENDPOINTS.read.path, { id: record.id }))).status).toBe(
      401,
    );
  });
});

describe('editing a candidate (POST /api/admin/candidates/:id, _method=PUT)', () => {
  it('replaces the text fields, keeps an upload left out, and audits before and after', async () => {
    const record = await indexed({ middle_name: 'Ifeoma', igbo: 'C6' });
    const response = await edit(record, {
      last_name: 'Okonkwo-Eze',
      middle_name: undefined,
      igbo: 'B2',
      yoruba: 'A1',
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(O.updated);
    const updated = response.body.data as CandidateRecord;
    expect(updated).toMatchObject({
      id: record.id,
      candidate_index: record.candidate_index,
      last_name: 'Okonkwo-Eze',
    });
    // A field left out of the whole form is cleared; the photo left out is kept.
    expect(updated.fields).toEqual({
      ...record.fields,
      last_name: 'Okonkwo-Eze',
      middle_name: null,
      igbo: 'B2',
      yoruba: 'A1',
    });
    expect(updated.uploads).toEqual(record.uploads);
    expect((await read(record.id)).body.data).toEqual(updated);

    const entry = await lastAudit(t, 'candidate.updated', record.id);
    expect(entry).toMatchObject({ entity: 'candidate', actorId: await userIdOf(t, 'admin@example.org') });
    const photoKey = keyOf(record.uploads.photo!.url);
    expect(entry.before).toEqual({
      candidate_index: record.candidate_index,
      fields: record.fields,
      uploads: { photo: photoKey },
    });
    expect(entry.after).toEqual({
      candidate_index: record.candidate_index,
      fields: updated.fields,
      uploads: { photo: photoKey },
    });
  });

  it('replaces an upload sent again: the new file is served, the old one is gone', async () => {
    const record = await indexed(
      {},
      { photo: { bytes: PNG }, birth_certificate_upload: { bytes: PDF, type: 'application/pdf' } },
    );
    const oldPhoto = keyOf(record.uploads.photo!.url);
    const response = await edit(record, {}, { photo: { bytes: JPEG, type: 'image/jpeg' } });
    expect(response.status).toBe(200);
    const updated = response.body.data as CandidateRecord;
    expect(updated.uploads.photo).toEqual({
      url: expect.stringMatching(/\.jpg$/),
      content_type: 'image/jpeg',
      size: JPEG.byteLength,
    });
    expect(updated.uploads.birth_certificate_upload).toEqual(record.uploads.birth_certificate_upload);
    expect(storedUploads(t)).not.toContain(oldPhoto.split('/')[1]);
    expect(storedUploads(t)).toContain(keyOf(updated.uploads.photo!.url).split('/')[1]);
    expect(await db().select().from(files).where(eq(files.key, oldPhoto))).toEqual([]);
    expect(
      (await fetchRaw(t, record.uploads.photo!.url, { authorization: `Bearer ${tokens.admin}` })).status,
    ).toBe(404);
    const served = await fetchRaw(t, updated.uploads.photo!.url, { authorization: `Bearer ${tokens.admin}` });
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(JPEG);

    const entry = await lastAudit(t, 'candidate.updated', record.id);
    expect((entry.before as { uploads: object }).uploads).toMatchObject({ photo: oldPhoto });
    expect((entry.after as { uploads: object }).uploads).toMatchObject({
      photo: keyOf(updated.uploads.photo!.url),
    });
  });

  it('runs the same validator: the spec’s messages, and nothing changes', async () => {
    const record = await indexed();
    const response = await edit(record, { first_name: 'Ab', gender: undefined, exam_month: undefined });
    expect(response.status).toBe(422);
    expect(response.body.message).toEqual({
      first_name: [M.firstNameShort],
      gender: [M.genderRequired],
      exam_month: [M.examMonthRequired],
    });
    expect((await read(record.id)).body.data).toEqual(record);
  });

  it('checks a replacement upload like a new one, and keeps the stored file when it is refused', async () => {
    const record = await indexed();
    const stored = storedUploads(t);
    const tooLarge = await edit(record, {}, { photo: { bytes: pngOfSize(2_000_001) } });
    expect(tooLarge.body.message).toEqual({ photo: [M.fileTooLarge] });
    const notImage = await edit(record, {}, { photo: { bytes: text('hello'), type: 'image/png' } });
    expect(notImage.body.message).toEqual({ photo: [R.photoNotImage] });
    expect(storedUploads(t)).toEqual(stored);
    expect((await read(record.id)).body.data.uploads).toEqual(record.uploads);
  });

  it('needs the A4 food hygiene certificate only when none is stored', async () => {
    const record = await indexed();
    const noCertificate = {
      course_header: 'A4',
      certificate_evaluated: undefined,
      year_of_certificate_evaluated: undefined,
      exam_number_1: undefined,
      exam_month: undefined,
    };
    const refused = await edit(record, noCertificate);
    expect(refused.body.message).toEqual({ fn_image_upload: [M.foodHygieneRequired] });
    const moved = await edit(record, noCertificate, {
      fn_image_upload: { bytes: PDF, type: 'application/pdf' },
    });
    expect(moved.status).toBe(200);
    // Stored now: later edits need not send it again.
    const again = await edit(moved.body.data, { middle_name: 'Changed' });
    expect(again.status).toBe(200);
    expect(again.body.data.uploads.fn_image_upload).toEqual(moved.body.data.uploads.fn_image_upload);
    // The index number is the candidate's for good, even after moving to another course header.
    expect(again.body.data.candidate_index).toBe(record.candidate_index);
    expect(again.body.data.course_header.code).toBe('A4');
  });

  it('is not a duplicate of itself, but is of another candidate', async () => {
    const first = uniqueFirstName('Twin');
    const one = await indexed({ first_name: first, date_of_birth: '2000-01-01' });
    const two = await indexed({ first_name: first, date_of_birth: '2000-01-02' });
    expect((await edit(one, { first_name: first.toLowerCase() })).status).toBe(200);
    const clash = await edit(two, { date_of_birth: '2000-01-01' });
    expect(clash.status).toBe(422);
    expect(clash.body.message).toEqual({ first_name: [R.duplicate] });
  });

  it('closed indexing and a suspended school do not stop corrections, only a move into them', async () => {
    const [schoolB] = await db()
      .insert(trainingSchools)
      .values({ code: 'EDT-01', name: 'Edit Test School', state: 'Lagos' })
      .returning();
    const [courseB] = await db()
      .insert(courseHeaders)
      .values({ code: 'E1', title: 'Edit Test Course' })
      .returning();
    const record = await indexed({ school_code: 'EDT-01', course_header: 'E1' });
    await db().update(trainingSchools).set({ status: 'suspended' }).where(eq(trainingSchools.id, schoolB.id));
    await db()
      .update(courseHeaders)
      .set({ indexingStatus: 'closed' })
      .where(eq(courseHeaders.id, courseB.id));

    const corrected = await edit(record, { middle_name: 'Corrected' });
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.fields.middle_name).toBe('Corrected');

    const other = await indexed();
    const moved = await edit(other, { school_code: 'EDT-01', course_header: 'E1' });
    expect(moved.status).toBe(422);
    expect(moved.body.message).toEqual({
      school_code: [R.schoolSuspended],
      course_header: [R.indexingClosed],
    });
  });

  it('404 for a candidate that is not there; 403 for school admins', async () => {
    const record = await indexed();
    const missing = await t.request('POST', fillPath(CANDIDATE_ENDPOINTS.update.path, { id: 999_999 }), {
      token: tokens.admin,
      form: candidateForm(),
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: O.notFound });
    expect((await edit(record, {}, {}, tokens.school1)).status).toBe(403);
  });
});

describe('verification (POST /api/admin/candidates/:id/verification)', () => {
  const verify = (id: number, json: unknown, token = tokens.admin) =>
    t.request('POST', fillPath(CANDIDATE_ENDPOINTS.verification.path, { id }), { token, json });

  it('marks the documents verified, with who and when, and takes the mark back; both audited', async () => {
    const record = await indexed();
    const response = await verify(record.id, { verified: true });
    expect(response.status).toBe(200);
    const { fields: _fields, uploads: _uploads, ...listed } = record;
    expect(response.body).toEqual({
      success: true,
      message: O.verified,
      data: { ...listed, verified: true },
    });
    const [row] = await db().select().from(candidates).where(eq(candidates.id, record.id));
    expect(row).toMatchObject({ verified: true, verifiedBy: await userIdOf(t, 'admin@example.org') });
    expect(row.verifiedAt).toBeInstanceOf(Date);
    expect(await lastAudit(t, 'candidate.verification_changed', record.id)).toMatchObject({
      before: { verified: false },
      after: { verified: true },
    });

    const back = await verify(record.id, { verified: false });
    expect(back.body).toMatchObject({ success: true, message: O.unverified, data: { verified: false } });
    const [after] = await db().select().from(candidates).where(eq(candidates.id, record.id));
    expect(after).toMatchObject({ verified: false, verifiedBy: null, verifiedAt: null });
  });

  it('answers a CandidateRow (no fields, no uploads)', async () => {
    const record = await indexed();
    const response = await verify(record.id, { verified: true });
    expect(Object.keys(response.body.data).sort()).toEqual(
      [
        'candidate_index',
        'course_header',
        'created_at',
        'first_name',
        'id',
        'last_name',
        'middle_name',
        'reg_status',
        'school',
        'verified',
        'year',
      ].sort(),
    );
  });

  it('setting the mark it already has changes nothing and writes no audit entry', async () => {
    const record = await indexed();
    const response = await verify(record.id, { verified: false });
    expect(response.body.data.verified).toBe(false);
    expect(await lastAudit(t, 'candidate.verification_changed', record.id)).toBeUndefined();
  });

  it.each([{}, { verified: 'maybe' }, { verified: null }])(
    '%j: 422 Choose one of the options',
    async (json) => {
      const record = await indexed();
      const response = await verify(record.id, json);
      expect(response.status).toBe(422);
      expect(response.body.message).toEqual({ verified: [R.choose] });
    },
  );

  it('404 for an unknown candidate; 403 for a school admin', async () => {
    expect((await verify(999_999, { verified: true })).body).toEqual({ success: false, message: O.notFound });
    const record = await indexed();
    expect((await verify(record.id, { verified: true }, tokens.school1)).status).toBe(403);
  });
});

describe("who may see a candidate's uploads (GET /files/*)", () => {
  let record: CandidateRecord;
  beforeAll(async () => {
    // A candidate of SHT-IB, whose school admin is school1; school2 is CHT-CA's.
    record = await indexed(
      {},
      { photo: { bytes: PNG }, olevel_certificate_upload: { bytes: PDF, type: 'application/pdf' } },
    );
  });
  const get = (url: string, headers: Record<string, string> = {}) => fetchRaw(t, url, headers);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('any admin: the file, with the safe headers', async () => {
    const response = await get(record.uploads.photo!.url, bearer(tokens.admin));
    expect(response.status).toBe(200);
    expect(response.bytes).toEqual(PNG);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe('inline');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('a PDF goes out as application/pdf, inline, under the same sandbox', async () => {
    const response = await get(record.uploads.olevel_certificate_upload!.url, bearer(tokens.admin));
    expect(response.status).toBe(200);
    expect(response.bytes).toEqual(PDF);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('inline');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it("the candidate's own school admin: yes, by bearer header or by the token cookie", async () => {
    expect((await get(record.uploads.photo!.url, bearer(tokens.school1))).status).toBe(200);
    const byCookie = await get(record.uploads.olevel_certificate_upload!.url, {
      cookie: `token=${encodeURIComponent(tokens.school1)}`,
    });
    expect(byCookie.status).toBe(200);
    expect(byCookie.bytes).toEqual(PDF);
  });

  it("another school's admin: 404, as if it were not there", async () => {
    for (const url of [record.uploads.photo!.url, record.uploads.olevel_certificate_upload!.url]) {
      const response = await t.request('GET', url, { token: tokens.school2 });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ success: false, message: 'There is nothing at this address.' });
    }
  });

  it('a school admin without a school: 404', async () => {
    const loose = await addUser(t, {
      email: 'loose@example.org',
      name: 'No School',
      role: 'school_admin',
      trainingSchoolId: null,
    });
    const token = (await issueToken(db(), loose, 60)).token;
    expect((await get(record.uploads.photo!.url, bearer(token))).status).toBe(404);
  });

  it('signed out: 401 Unauthenticated.', async () => {
    const response = await t.request('GET', record.uploads.photo!.url);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
  });

  it('follows the candidate: moved to another school, its files go with it', async () => {
    const moving = await indexed();
    expect((await get(moving.uploads.photo!.url, bearer(tokens.school1))).status).toBe(200);
    expect((await edit(moving, { school_code: 'CHT-CA' })).status).toBe(200);
    expect((await get(moving.uploads.photo!.url, bearer(tokens.school1))).status).toBe(404);
    expect((await get(moving.uploads.photo!.url, bearer(tokens.school2))).status).toBe(200);
  });
});
