import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMIT_BYTES } from '../../../contract/constants';
import { PROFILE_MESSAGES } from '../../../contract/profile';
import { files } from '../../../server/db/schema';
import { demoSignIns, fetchRaw, PNG, pngOfSize, profileForm, storedUploads, text } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: uploads. A file is judged by its bytes, never by the name or type the browser sent:
 * only JPEG, PNG, GIF, WebP (and PDF where a certificate may be one) are stored, under a name the server
 * makes, at most 2,000,000 bytes; and it is served back under headers that stop a browser running it.
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>>;
const PROFILE = '/api/training-school-admin/update-user-training-school-profile';
const fields = { name: 'Babatunde Adeyemi', email: 'school1@example.org' };

beforeAll(async () => {
  t = await startTestPortal();
  tokens = await demoSignIns(t);
});
afterAll(() => t?.close());

const fileCount = async () => (await t.portal.database.db.select({ total: count() }).from(files))[0].total;
const upload = (bytes: Uint8Array, name: string, type: string) =>
  t.request('POST', PROFILE, { token: tokens.school1, form: profileForm(fields, { bytes, name, type }) });

describe('uploads', () => {
  it.each([
    [
      'HTML named .png',
      text('<html><script>alert(document.cookie)</script></html>'),
      'photo.png',
      'image/png',
    ],
    [
      'an SVG with script',
      text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'a.svg',
      'image/svg+xml',
    ],
    [
      'a PNG header before HTML',
      new Uint8Array([...PNG.slice(0, 8), ...text('<html><script>1</script>')]),
      'x.png',
      'image/png',
    ],
  ])('refuses %s, and stores nothing', async (_name, bytes, name, type) => {
    const before = await fileCount();
    const response = await upload(bytes, name, type);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { photo: [PROFILE_MESSAGES.photoNotImage] } });
    expect(await fileCount()).toBe(before);
    expect(storedUploads(t, 'profile-photos')).toEqual([]);
  });

  it('refuses a file one byte over the limit', async () => {
    const response = await upload(pngOfSize(UPLOAD_LIMIT_BYTES + 1), 'big.png', 'image/png');
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ success: false, message: { photo: [PROFILE_MESSAGES.photoTooLarge] } });
  });

  it('stores a real image under a server-made name and serves it so a browser cannot run it', async () => {
    const response = await upload(PNG, '../../evil.html', 'text/html');
    expect(response.status).toBe(200);
    const profile = await t.request('GET', '/api/training-school-admin/user-profile-information', {
      token: tokens.school1,
    });
    const url = profile.body.data.photo as string;
    expect(url).toMatch(/^\/files\/profile-photos\/[A-Za-z0-9_-]{16,64}\.png$/);
    const served = await fetchRaw(t, url, { authorization: `Bearer ${tokens.school1}` });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });
});
