import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';

export const DEMO_PASSWORD = 'demo-password';

/** The newest sign-in code (or, with its `subject`, another code) mailed to this address after `since`,
 * read from DATA_DIR/mail as a person without a mail server would. */
export async function readMailedCode(
  email: string,
  since: number,
  subject = 'Your sign-in code',
): Promise<string> {
  const dir = path.join(E2E_DATA_DIR, 'mail');
  let code: string | null = null;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(dir)) return null;
        const newest = fs
          .readdirSync(dir)
          .filter((name) => name.endsWith(`-${email}.eml`))
          .map((name) => path.join(dir, name))
          .filter((file) => fs.statSync(file).mtimeMs >= since)
          .sort()
          .pop();
        if (!newest) return null;
        const pattern = new RegExp(`^Subject: ${subject}: (\\d{6})$`, 'm');
        code = pattern.exec(fs.readFileSync(newest, 'utf8'))?.[1] ?? null;
        return code;
      },
      { message: `a code mailed to ${email} (${subject})` },
    )
    .not.toBeNull();
  return code!;
}

/** Signs in through the real pages: email and password, then the mailed code. */
/**
 * The address each sign-in of the suite comes from (TEST-NET-2, as behind a load balancer: the e2e
 * portal runs with TRUST_PROXY=1, playwright.config.ts). One portal serves the whole suite, and its
 * sign-in limits count every attempt from one address (100 in 15 minutes, server/auth/service.ts):
 * from 127.0.0.1 alone, a suite of more than 100 sign-ins is refused part-way, as a script would be.
 */
let signIns = 0;
const nextAddress = () => {
  signIns += 1;
  return `198.51.${Math.floor(signIns / 250)}.${(signIns % 250) + 1}`;
};

export async function signIn(page: Page, email: string, startAt = '/login', password = DEMO_PASSWORD) {
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': nextAddress() });
  await page.goto(startAt);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const since = Date.now() - 1000;
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth-confirm-code/);
  await page.getByLabel('Confirmation code').fill(await readMailedCode(email, since));
  await page.getByRole('button', { name: 'Confirm' }).click();
  // Signed in once the shell shows: a navigation started earlier would cut the confirmation short.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

/** Signs in through the API, as a script would, for a test's setup; returns the bearer token. */
export async function apiSignIn(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const since = Date.now() - 1000;
  const headers = { 'X-Forwarded-For': nextAddress() };
  const login = await request.post('/api/auth/login', { data: { email, password }, headers });
  expect(login.status()).toBe(200);
  const { login_id } = (await login.json()).data;
  const confirm = await request.post('/api/auth/confirm-code', {
    data: { login_id, code: await readMailedCode(email, since) },
    headers,
  });
  expect(confirm.status()).toBe(200);
  return (await confirm.json()).data.access_token as string;
}

/** A real 8x8 PNG, so the server's content check sees an image. */
export function pngBytes(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Buffer.concat(
    Array.from({ length: 8 }, () => Buffer.from([0, ...Array(8).fill([5, 150, 105]).flat()])),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
