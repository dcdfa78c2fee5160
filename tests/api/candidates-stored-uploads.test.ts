import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_MESSAGES as M, type CandidateRecord } from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { fillPath } from '../../contract/endpoint';
import { issueToken } from '../../server/auth/tokens';
import {
  candidateForm,
  PDF,
  PNG,
  seedCandidates,
  storedUploads,
  uniqueFirstName,
  userIdOf,
  type FilePart,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Issue 22: a stored upload satisfies its rule on an edit (the photo, A4's food hygiene certificate,
 * B5's ND certificate); replacing it is optional. A record with nothing stored still needs them.
 */

let t: TestPortal;
let admin: string;

beforeAll(async () => {
  t = await startTestPortal();
  admin = (await issueToken(t.portal.database.db, await userIdOf(t, 'admin@example.org'), 60)).token;
});
afterAll(() => t?.close());

async function indexed(
  fields: Record<string, string | undefined> = {},
  uploads: Record<string, FilePart | undefined> = { photo: { bytes: PNG } },
): Promise<CandidateRecord> {
  const response = await t.request('POST', CANDIDATE_ENDPOINTS.create.path, {
    token: admin,
    form: candidateForm({ first_name: uniqueFirstName('Stored'), ...fields }, uploads),
  });
  if (response.status !== 200) throw new Error(`index ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/**
 * The edit exactly as the browser's FormData sends it: every text field of the record, and each file
 * input left empty as an empty part with no name (what `new FormData(form)` gives for a file input with
 * no file chosen).
 */
function browserEdit(
  record: { id: number; fields: Record<string, string | null> },
  fields: Record<string, string>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...record.fields, ...fields })) {
    if (value !== null) form.append(name, value);
  }
  form.append('_method', 'PUT');
  for (const field of ['photo', 'fn_image_upload', 'nd_certificate_upload', 'birth_certificate_upload']) {
    form.append(field, new File([], '', { type: 'application/octet-stream' }));
  }
  return t.request('POST', fillPath(CANDIDATE_ENDPOINTS.update.path, { id: record.id }), {
    token: admin,
    form,
  });
}

const read = async (id: number): Promise<CandidateRecord> =>
  (await t.request('GET', fillPath(CANDIDATE_ENDPOINTS.read.path, { id }), { token: admin })).body.data;

const A4 = {
  course_header: 'A4',
  certificate_evaluated: undefined,
  year_of_certificate_evaluated: undefined,
  exam_number_1: undefined,
  exam_month: undefined,
};

describe('editing with stored uploads (issue 22)', () => {
  it('an edit that does not send the photo again saves, and keeps the stored photo', async () => {
    const record = await indexed();
    const files = storedUploads(t);
    const response = await browserEdit(record, { middle_name: 'Kept' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.fields.middle_name).toBe('Kept');
    expect(response.body.data.uploads.photo).toEqual(record.uploads.photo);
    const again = await read(record.id);
    expect(again.fields.middle_name).toBe('Kept');
    expect(again.uploads.photo).toEqual(record.uploads.photo);
    // Nothing stored again, nothing removed.
    expect(storedUploads(t)).toEqual(files);
  });

  it("A4's food hygiene and B5's ND certificate: a stored one satisfies the rule on an edit", async () => {
    const a4 = await indexed(A4, {
      photo: { bytes: PNG },
      fn_image_upload: { bytes: PDF, type: 'application/pdf' },
    });
    const savedA4 = await browserEdit(a4, { middle_name: 'Hygiene' });
    expect(savedA4.status, JSON.stringify(savedA4.body)).toBe(200);
    expect(savedA4.body.data.uploads.fn_image_upload).toEqual(a4.uploads.fn_image_upload);

    const b5 = await indexed(
      { ...A4, course_header: 'B5' },
      { photo: { bytes: PNG }, nd_certificate_upload: { bytes: PDF, type: 'application/pdf' } },
    );
    const savedB5 = await browserEdit(b5, { middle_name: 'Diploma' });
    expect(savedB5.status, JSON.stringify(savedB5.body)).toBe(200);
    expect(savedB5.body.data.uploads.nd_certificate_upload).toEqual(b5.uploads.nd_certificate_upload);
  });

  it('a record with no stored photo is still refused with the spec message, and nothing changes', async () => {
    const [id] = await seedCandidates(t, [
      { first_name: uniqueFirstName('Nophoto'), last_name: 'Okafor', school: 'SHT-IB', course_header: 'A5' },
    ]);
    const record = await read(id);
    expect(record.uploads.photo).toBeUndefined();
    const refused = await browserEdit(record, { middle_name: 'Refused' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toEqual({ photo: [M.photoRequired] });
    expect((await read(id)).fields.middle_name).toBeNull();
  });

  it('a record with a photo but no stored A4 certificate is refused with the spec message', async () => {
    const record = await indexed();
    const moved = await browserEdit(
      {
        id: record.id,
        fields: {
          ...record.fields,
          certificate_evaluated: null,
          year_of_certificate_evaluated: null,
          exam_number_1: null,
          exam_month: null,
        },
      },
      { course_header: 'A4' },
    );
    expect(moved.status).toBe(422);
    expect(moved.body.message).toEqual({ fn_image_upload: [M.foodHygieneRequired] });
  });
});
