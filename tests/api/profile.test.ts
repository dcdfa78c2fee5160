import fs from 'node:fs';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT_BYTES } from '../../contract/constants';
import { UNAUTHENTICATED_MESSAGE } from '../../contract/envelope';
import { PROFILE_MESSAGES } from '../../contract/profile';
import { issueToken } from '../../server/auth/tokens';
import { auditLog, files, users } from '../../server/db/schema';
import { fetchRaw, JPEG, PNG, pngOfSize, profileForm, text, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The profile form (spec section 7): each role's path, its validation, the photo checked by content
 * and stored on the portal's own file storage, and GET /files/* serving it safely.
 */

const ADMIN = 'admin@example.org';
const SCHOOL1 = 'school1@example.org';
const SCHOOL2 = 'school2@example.org';
const ADMIN_PATH = '/api/admin/user-profile-update';
const SCHOOL_PATH = '/api/training-school-admin/update-user-training-school-profile';
const UPDATED = { success: true, message: PROFILE_MESSAGES.updated };

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<string, string>;

beforeAll(async () => {
  t = await startTestPortal();
  for (const email of [ADMIN, SCHOOL1, SCHOOL2]) {
    tokens[email] = (await issueToken(db(), await userIdOf(t, email), 60)).token;
  }
});
afterAll(() => t?.close());

const userRow = async (email: string) => {
  const [row] = await db()
    .select()
    .from(users)
    .where(eq(users.id, await userIdOf(t, email)));
  return row;
};

/** Puts a user's profile back as the seed had it, so each test starts from there. */
const SEEDED = {
  [ADMIN]: { name: 'Adaeze Okafor', phoneNumber: '+234 803 000 0001', gender: 'female' },
  [SCHOOL1]: { name: 'Babatunde Adeyemi', phoneNumber: '+234 803 000 0002', gender: 'male' },
  [SCHOOL2]: { name: 'Ekaette Bassey', phoneNumber: '+234 803 000 0003', gender: 'female' },
};
beforeEach(async () => {
  for (const [email, seeded] of Object.entries(SEEDED)) {
    await db()
      .update(users)
      .set({ ...seeded, email, photo: null })
      .where(eq(users.id, await userIdOf(t, email)));
  }
});

const post = (email: string, form: FormData, route = email === ADMIN ? ADMIN_PATH : SCHOOL_PATH) =>
  t.request('POST', route, { token: tokens[email], form });

const profile = async (email: string) => {
  const prefix = email === ADMIN ? '/api/admin' : '/api/training-school-admin';
  const response = await t.request('GET', `${prefix}/user-profile-information`, { token: tokens[email] });
  return response.body.data;
};

const uploadsDir = () => path.join(t.dataDir, 'uploads');
const storedFiles = (): string[] =>
  fs.existsSync(uploadsDir())
    ? fs
        .readdirSync(uploadsDir(), { recursive: true })
        .map(String)
        .filter((name) => /\.(png|jpg|gif|webp)$/.test(name))
        .sort()
    : [];
const keyOf = (url: string) => url.replace(/^\/files\//, '');

describe('the admin updates their profile (multipart, _method=PUT)', () => {
  it('saves name, email, phone number and gender, and the profile shows them at once', async () => {
    const response = await post(
      ADMIN,
      profileForm({
        _method: 'PUT',
        name: '  Adaeze N. Okafor ',
        email: 'ADMIN@example.org',
        phone_number: '+234 (803) 555-0101',
        gender: 'male',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual(UPDATED);
    expect(await profile(ADMIN)).toMatchObject({
      name: 'Adaeze N. Okafor',
      email: ADMIN,
      phone_number: '+234 (803) 555-0101',
      gender: 'male',
      photo: null,
    });
  });

  it('keeps the gender when none is sent, and clears the phone number when it is sent empty', async () => {
    const response = await post(
      ADMIN,
      profileForm({ name: 'Adaeze Okafor', email: ADMIN, phone_number: '' }),
    );
    expect(response.body).toEqual(UPDATED);
    expect(await profile(ADMIN)).toMatchObject({ gender: 'female', phone_number: null });
  });

  it('takes the same form as JSON too (no photo)', async () => {
    const response = await t.request('POST', ADMIN_PATH, {
      token: tokens[ADMIN],
      json: { name: 'Adaeze Okafor', email: ADMIN, phone_number: '08030000001', gender: 'female' },
    });
    expect(response.body).toEqual(UPDATED);
    expect((await profile(ADMIN)).phone_number).toBe('08030000001');
  });

  it('records the change in the audit log, before and after, never a password hash', async () => {
    await post(ADMIN, profileForm({ name: 'Audited Name', email: ADMIN, phone_number: '' }));
    const [entry] = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'user.profile_updated'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const id = await userIdOf(t, ADMIN);
    expect(entry).toMatchObject({ actorId: id, impersonatorId: null, entity: 'user', entityId: String(id) });
    expect(entry.before).toEqual({
      name: 'Adaeze Okafor',
      email: ADMIN,
      phone_number: '+234 803 000 0001',
      gender: 'female',
      photo: null,
    });
    expect(entry.after).toEqual({
      name: 'Audited Name',
      email: ADMIN,
      phone_number: null,
      gender: 'female',
      photo: null,
    });
    expect(JSON.stringify(entry)).not.toMatch(/argon2|password/i);
  });
});

describe('a school admin updates their profile (multipart, _method=POST)', () => {
  it('saves name, email and phone number; a gender sent anyway is ignored', async () => {
    const response = await post(
      SCHOOL1,
      profileForm({
        _method: 'POST',
        name: 'Babatunde A. Adeyemi',
        email: 'tunde@example.org',
        phone_number: '0803 000 0002',
        gender: 'female',
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual(UPDATED);
    expect(await profile(SCHOOL1)).toMatchObject({
      name: 'Babatunde A. Adeyemi',
      email: 'tunde@example.org',
      phone_number: '0803 000 0002',
      gender: 'male',
    });
    // A gender that is not even valid is ignored too, not refused.
    const again = await post(
      SCHOOL1,
      profileForm({ name: 'Babatunde Adeyemi', email: SCHOOL1, gender: 'x' }),
    );
    expect(again.body).toEqual(UPDATED);
    expect((await userRow(SCHOOL1)).email).toBe(SCHOOL1);
  });

  it("cannot use the admin's path, nor the admin the school admin's (403)", async () => {
    const form = () => profileForm({ name: 'Someone', email: 'someone@example.org' });
    expect((await post(SCHOOL1, form(), ADMIN_PATH)).status).toBe(403);
    expect((await post(ADMIN, form(), SCHOOL_PATH)).status).toBe(403);
    expect((await userRow(SCHOOL1)).name).toBe('Babatunde Adeyemi');
  });

  it('is refused without a token: 401 Unauthenticated.', async () => {
    const response = await t.request('POST', SCHOOL_PATH, {
      form: profileForm({ name: 'X', email: 'x@example.org' }),
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: UNAUTHENTICATED_MESSAGE });
  });
});

describe('validation: 422 with field messages, and nothing changes', () => {
  it.each([
    ['no name', { email: ADMIN }, { name: [PROFILE_MESSAGES.nameRequired] }],
    ['a blank name', { name: '   ', email: ADMIN }, { name: [PROFILE_MESSAGES.nameRequired] }],
    ['no email', { name: 'A Name' }, { email: [PROFILE_MESSAGES.emailRequired] }],
    ['an empty email', { name: 'A Name', email: '' }, { email: [PROFILE_MESSAGES.emailRequired] }],
    [
      'a malformed email',
      { name: 'A Name', email: 'not-an-email' },
      { email: [PROFILE_MESSAGES.emailInvalid] },
    ],
    [
      'letters for a phone number',
      { name: 'A Name', email: ADMIN, phone_number: 'call me' },
      { phone_number: [PROFILE_MESSAGES.phoneInvalid] },
    ],
    [
      'too few digits',
      { name: 'A Name', email: ADMIN, phone_number: '12345' },
      { phone_number: [PROFILE_MESSAGES.phoneInvalid] },
    ],
    [
      'a third gender value',
      { name: 'A Name', email: ADMIN, gender: 'other' },
      { gender: [PROFILE_MESSAGES.genderInvalid] },
    ],
    ['a name too long', { name: 'x'.repeat(151), email: ADMIN }, { name: [PROFILE_MESSAGES.tooLong] }],
    [
      'everything wrong at once',
      { name: '', email: 'nope', phone_number: 'x' },
      {
        name: [PROFILE_MESSAGES.nameRequired],
        email: [PROFILE_MESSAGES.emailInvalid],
        phone_number: [PROFILE_MESSAGES.phoneInvalid],
      },
    ],
  ])('%s', async (_name, fields, message) => {
    const before = await userRow(ADMIN);
    const response = await post(ADMIN, profileForm(fields));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message });
    expect(await userRow(ADMIN)).toEqual(before);
  });

  it("refuses another account's email, in any case", async () => {
    for (const email of [SCHOOL1, 'School1@EXAMPLE.org', ' school1@example.org ']) {
      const response = await post(ADMIN, profileForm({ name: 'Adaeze Okafor', email }));
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ success: false, message: { email: [PROFILE_MESSAGES.emailTaken] } });
    }
    expect((await userRow(ADMIN)).email).toBe(ADMIN);
  });

  it('keeping your own email is not a clash', async () => {
    const response = await post(
      SCHOOL2,
      profileForm({ name: 'Ekaette Bassey', email: 'SCHOOL2@example.org' }),
    );
    expect(response.body).toEqual(UPDATED);
  });
});

describe('the photo', () => {
  it('is stored when it is an image by its content, served at /files/<key>, and shown on the profile', async () => {
    const response = await post(
      SCHOOL1,
      profileForm({ name: 'Babatunde Adeyemi', email: SCHOOL1 }, { bytes: PNG }),
    );
    expect(response.body).toEqual(UPDATED);
    const photo = (await profile(SCHOOL1)).photo as string;
    expect(photo).toMatch(/^\/files\/profile-photos\/[A-Za-z0-9_-]{16,64}\.png$/);

    const [row] = await db()
      .select()
      .from(files)
      .where(eq(files.key, keyOf(photo)));
    expect(row).toMatchObject({
      kind: 'profile_photo',
      ownerId: await userIdOf(t, SCHOOL1),
      contentType: 'image/png',
      size: PNG.byteLength,
    });
    expect(fs.readFileSync(path.join(uploadsDir(), keyOf(photo)))).toEqual(Buffer.from(PNG));
  });

  it('is named and typed by its content, not by the name or type the browser sent', async () => {
    const response = await post(
      ADMIN,
      profileForm(
        { name: 'Adaeze Okafor', email: ADMIN },
        { bytes: JPEG, name: 'me.png', type: 'image/png' },
      ),
    );
    expect(response.body).toEqual(UPDATED);
    const photo = (await profile(ADMIN)).photo as string;
    expect(photo).toMatch(/\.jpg$/);
    const served = await fetchRaw(t, photo, { authorization: `Bearer ${tokens[ADMIN]}` });
    expect(served.headers.get('content-type')).toBe('image/jpeg');
  });

  it.each([
    ['text named .png', text('this is not an image at all'), 'fake.png', 'image/png'],
    [
      'an SVG (it can carry script)',
      text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'a.svg',
      'image/svg+xml',
    ],
    ['an HTML page named .jpg', text('<!doctype html><script>alert(1)</script>'), 'a.jpg', 'image/jpeg'],
    ['a PDF', text('%PDF-1.4\n%âãÏÓ\n'), 'a.png', 'image/png'],
  ])('refuses %s: 422 on the photo field, and nothing changes', async (_name, bytes, name, type) => {
    const before = await userRow(SCHOOL1);
    const stored = storedFiles();
    const response = await post(
      SCHOOL1,
      profileForm({ name: 'New Name', email: SCHOOL1 }, { bytes, name, type }),
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { photo: [PROFILE_MESSAGES.photoNotImage] } });
    expect(await userRow(SCHOOL1)).toEqual(before);
    expect(storedFiles()).toEqual(stored);
  });

  it("refuses a photo of 2,000,001 bytes with 'File is too large', and takes one of exactly 2,000,000", async () => {
    const before = await userRow(ADMIN);
    const tooLarge = await post(
      ADMIN,
      profileForm({ name: 'Adaeze Okafor', email: ADMIN }, { bytes: pngOfSize(UPLOAD_LIMIT_BYTES + 1) }),
    );
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body).toEqual({ success: false, message: { photo: ['File is too large'] } });
    expect(await userRow(ADMIN)).toEqual(before);

    const atLimit = await post(
      ADMIN,
      profileForm({ name: 'Adaeze Okafor', email: ADMIN }, { bytes: pngOfSize(UPLOAD_LIMIT_BYTES) }),
    );
    expect(atLimit.body).toEqual(UPDATED);
    const [row] = await db()
      .select()
      .from(files)
      .where(eq(files.key, keyOf((await profile(ADMIN)).photo)));
    expect(row.size).toBe(UPLOAD_LIMIT_BYTES);
  });

  it('reports a bad photo together with the other fields', async () => {
    const response = await post(ADMIN, profileForm({ name: '', email: ADMIN }, { bytes: text('nope') }));
    expect(response.body).toEqual({
      success: false,
      message: { name: [PROFILE_MESSAGES.nameRequired], photo: [PROFILE_MESSAGES.photoNotImage] },
    });
  });

  it('an empty file part (an input left empty) is no photo: the old one stays', async () => {
    await post(SCHOOL2, profileForm({ name: 'Ekaette Bassey', email: SCHOOL2 }, { bytes: PNG }));
    const photo = (await profile(SCHOOL2)).photo;
    const response = await post(
      SCHOOL2,
      profileForm({ name: 'Ekaette B.', email: SCHOOL2 }, { bytes: new Uint8Array(0), name: '' }),
    );
    expect(response.body).toEqual(UPDATED);
    expect(await profile(SCHOOL2)).toMatchObject({ name: 'Ekaette B.', photo });
  });

  it('text in the photo field is ignored, never taken as a URL', async () => {
    const form = profileForm({ name: 'Ekaette Bassey', email: SCHOOL2, photo: 'https://evil.example/x.png' });
    expect((await post(SCHOOL2, form)).body).toEqual(UPDATED);
    expect((await profile(SCHOOL2)).photo).toBeNull();
  });

  it('replaces the old photo: its file, its record and its URL are gone', async () => {
    await post(SCHOOL1, profileForm({ name: 'Babatunde Adeyemi', email: SCHOOL1 }, { bytes: PNG }));
    const first = (await profile(SCHOOL1)).photo as string;
    expect(fs.existsSync(path.join(uploadsDir(), keyOf(first)))).toBe(true);

    await post(
      SCHOOL1,
      profileForm({ name: 'Babatunde Adeyemi', email: SCHOOL1 }, { bytes: JPEG, name: 'new.jpg' }),
    );
    const second = (await profile(SCHOOL1)).photo as string;
    expect(second).not.toBe(first);
    expect(fs.existsSync(path.join(uploadsDir(), keyOf(first)))).toBe(false);
    expect(fs.existsSync(path.join(uploadsDir(), `${keyOf(first)}.type`))).toBe(false);
    expect(
      await db()
        .select()
        .from(files)
        .where(eq(files.key, keyOf(first))),
    ).toEqual([]);
    const auth = { authorization: `Bearer ${tokens[SCHOOL1]}` };
    expect((await fetchRaw(t, first, auth)).status).toBe(404);
    expect((await fetchRaw(t, second, auth)).status).toBe(200);
  });

  it('a taken email with a good photo stores no file', async () => {
    const stored = storedFiles();
    const before = await db().select().from(files);
    const response = await post(SCHOOL1, profileForm({ name: 'B', email: ADMIN }, { bytes: PNG }));
    expect(response.status).toBe(422);
    expect(storedFiles()).toEqual(stored);
    expect(await db().select().from(files)).toEqual(before);
  });

  it('when the storage fails, the profile is not changed (500)', async () => {
    const before = await userRow(SCHOOL2);
    const put = t.portal.storage.put;
    t.portal.storage.put = async () => {
      throw new Error('disk full');
    };
    try {
      const response = await post(SCHOOL2, profileForm({ name: 'Changed', email: SCHOOL2 }, { bytes: PNG }));
      expect(response.status).toBe(500);
      expect(response.body.success).toBe(false);
    } finally {
      t.portal.storage.put = put;
    }
    expect(await userRow(SCHOOL2)).toEqual(before);
  });
});

describe('GET /files/<key>', () => {
  let photo: string;
  beforeEach(async () => {
    await post(SCHOOL1, profileForm({ name: 'Babatunde Adeyemi', email: SCHOOL1 }, { bytes: PNG }));
    photo = (await profile(SCHOOL1)).photo as string;
  });

  const SAFE_HEADERS = {
    'content-type': 'image/png',
    'x-content-type-options': 'nosniff',
    'content-disposition': 'inline',
    'cache-control': 'private, no-cache',
    'content-security-policy': "default-src 'none'; sandbox",
  };

  it('serves the photo to a request bearing only the token cookie (as an <img> does), with safe headers', async () => {
    const served = await fetchRaw(t, photo, { cookie: `token=${encodeURIComponent(tokens[SCHOOL2])}` });
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(PNG);
    for (const [name, value] of Object.entries(SAFE_HEADERS))
      expect(served.headers.get(name), name).toBe(value);
  });

  it("serves it to the bearer header too, and to any signed-in user: the admin sees a school admin's photo", async () => {
    const served = await fetchRaw(t, photo, { authorization: `Bearer ${tokens[ADMIN]}` });
    expect(served.status).toBe(200);
    expect(served.bytes).toEqual(PNG);
  });

  it.each([
    ['no token', {}],
    ['a token cookie that is not a token', { cookie: 'token=nonsense' }],
    ['a malformed bearer', { authorization: 'Bearer nonsense' }],
  ])('refuses %s: 401 Unauthenticated.', async (_name, headers) => {
    const served = await fetchRaw(t, photo, headers);
    expect(served.status).toBe(401);
    expect(JSON.parse(new TextDecoder().decode(served.bytes))).toEqual({ message: UNAUTHENTICATED_MESSAGE });
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('refuses a revoked token cookie', async () => {
    const { token } = await issueToken(db(), await userIdOf(t, SCHOOL2), 10);
    expect((await fetchRaw(t, photo, { cookie: `token=${encodeURIComponent(token)}` })).status).toBe(200);
    await t.request('POST', '/api/auth/logout', { token });
    const served = await fetchRaw(t, photo, { cookie: `token=${encodeURIComponent(token)}` });
    expect(served.status).toBe(401);
  });

  it.each([
    ['an unknown key', '/files/profile-photos/AAAAAAAAAAAAAAAAAAAAAAAA.png'],
    ['a key that climbs out', '/files/profile-photos/..%2F..%2F..%2Fetc%2Fpasswd'],
    ['an encoded backslash path', '/files/profile-photos%5C..%5C..%5Cportal.lock'],
    ['a folder', '/files/profile-photos/'],
    ['the bare prefix', '/files/'],
    ['the type file beside a stored photo', () => `${photo}.type`],
  ])('answers %s with 404', async (_name, route) => {
    const target = typeof route === 'function' ? route() : route;
    const served = await fetchRaw(t, target, { authorization: `Bearer ${tokens[ADMIN]}` });
    expect(served.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(served.bytes))).toEqual({
      success: false,
      message: 'There is nothing at this address.',
    });
  });

  it('serves nothing that is on disk but not recorded in the files table', async () => {
    const key = 'profile-photos/NotRecordedAnywhere0001.png';
    await t.portal.storage.put(key, PNG, 'image/png');
    const served = await fetchRaw(t, `/files/${key}`, { authorization: `Bearer ${tokens[ADMIN]}` });
    expect(served.status).toBe(404);
    await t.portal.storage.remove(key);
  });

  it('never answers text/html, even for a record that claims it', async () => {
    const key = 'profile-photos/ClaimsToBeHtml0000001.png';
    await t.portal.storage.put(key, text('<script>alert(1)</script>'), 'text/html');
    await db()
      .insert(files)
      .values({
        key,
        kind: 'profile_photo',
        ownerId: await userIdOf(t, ADMIN),
        contentType: 'text/html',
        size: 25,
      });
    const served = await fetchRaw(t, `/files/${key}`, { authorization: `Bearer ${tokens[ADMIN]}` });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    await db().delete(files).where(eq(files.key, key));
  });
});
