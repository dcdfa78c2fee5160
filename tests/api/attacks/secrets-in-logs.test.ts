import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ENDPOINTS } from '../../../contract/auth.endpoints';
import { DEMO_PASSWORD } from '../../../server/demo';
import { createPostgresDatabase } from '../portal';
import { startSmtpServer } from '../smtp';

/**
 * Issue 10: with a real mail server configured, nothing secret reaches the log. The portal runs as its
 * own process (server/main.ts, as `npm start` runs it) with SMTP_URL pointing at a local SMTP server, and
 * everything it writes to stdout and stderr is kept; a sign-in and a password reset are then done over
 * HTTP, and every secret they involved is looked for in that log.
 */

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let portal: ChildProcess;
let portalUrl = '';
let log = '';
let dataDir = '';
let dropDatabase: (() => Promise<void>) | null = null;

beforeAll(async () => {
  smtp = await startSmtpServer();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-logs-'));
  const env: Record<string, string> = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SMTP_URL: smtp.url,
    SEED_DEMO: '1',
  };
  delete env.QUIET;
  if (process.env.DATABASE_URL) {
    const database = await createPostgresDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  portal = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env });
  portal.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  portal.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  portalUrl = await new Promise<string>((resolve, reject) => {
    const listening = () => {
      const url = /running at (http:\/\/\S+)/.exec(log)?.[1];
      if (url) resolve(url);
    };
    portal.stdout!.on('data', listening);
    portal.once('exit', (code) => reject(new Error(`the portal stopped (${code}):\n${log}`)));
  });
}, 90_000);

afterAll(async () => {
  if (portal && portal.exitCode === null) {
    const exited = new Promise((resolve) => portal.once('exit', resolve));
    portal.kill('SIGTERM');
    await exited;
  }
  await smtp?.close();
  await dropDatabase?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function post(route: string, json: unknown, token?: string) {
  const response = await fetch(portalUrl + route, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, string> } };
}

/** The newest mail's code, read from its subject as the recipient would. */
async function mailedCode(count: number, subject: RegExp): Promise<string> {
  await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(count);
  const code = subject.exec(smtp.received[count - 1].message)?.[1];
  expect(code).toMatch(/^\d{6}$/);
  return code!;
}

describe('no secret in the log with SMTP configured', () => {
  it('signs in and resets a password, and the log holds none of their codes, tokens or passwords', async () => {
    const email = 'school1@example.org';
    const secrets: string[] = [];

    const login = await post('/api/auth/login', { email, password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const signInCode = await mailedCode(1, /^Subject: Your sign-in code: (\d{6})$/m);
    const confirmed = await post('/api/auth/confirm-code', {
      login_id: login.body.data!.login_id,
      code: signInCode,
    });
    expect(confirmed.status).toBe(200);
    secrets.push(signInCode, login.body.data!.login_id, confirmed.body.data!.access_token);

    expect((await post(AUTH_ENDPOINTS.forgotPassword.path, { email })).status).toBe(200);
    const resetCode = await mailedCode(2, /^Subject: Your password reset code: (\d{6})$/m);
    const newPassword = 'a-new-password-for-the-log-test';
    const reset = await post(AUTH_ENDPOINTS.resetPassword.path, {
      email,
      code: resetCode,
      password: newPassword,
      password_confirmation: newPassword,
    });
    expect(reset.status).toBe(200);
    // (The demo password is printed in the start banner on purpose: it is the demo's, not a secret.)
    secrets.push(resetCode, newPassword);

    // The mail was sent, and the log says so: to whom and which kind, nothing of its words.
    await expect.poll(() => log.match(/"event":"mail\.sent"/g)?.length ?? 0).toBe(2);
    const mailLines = log.split('\n').filter((line) => line.includes('"event":"mail.sent"'));
    expect(mailLines.map((line) => JSON.parse(line) as Record<string, string>)).toMatchObject([
      { to: email, kind: 'sign-in code' },
      { to: email, kind: 'requested reset code' },
    ]);
    for (const line of mailLines) expect(line).not.toMatch(/subject|text|code:/i);

    // Not a code, a token or a password anywhere: not in a mail line, a request line, an error or the banner.
    for (const secret of secrets) expect(log).not.toContain(secret);
    // And no password hash (argon2's encoded form) either.
    expect(log).not.toMatch(/\$argon2/);
  });
});
