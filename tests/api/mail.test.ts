import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../server/log';
import { createMailer } from '../../server/mail/mailer';
import { startTestPortal, type TestPortal } from './portal';
import { startSmtpServer, type ReceivedMail } from './smtp';

/** With SMTP_URL set, the sign-in code travels over real SMTP (a local SMTP server on loopback). */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let received: ReceivedMail[];
let t: TestPortal;

beforeAll(async () => {
  smtp = await startSmtpServer();
  received = smtp.received;
  t = await startTestPortal({ SMTP_URL: smtp.url, MAIL_FROM: 'Board <board@example.org>' });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('mail through SMTP', () => {
  it('delivers the sign-in code to the account, and the code signs in', async () => {
    const login = await t.request('POST', '/api/auth/login', {
      json: { email: 'school2@example.org', password: 'demo-password' },
    });
    expect(login.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual(['school2@example.org']);
    expect(received[0].message).toMatch(/^From: Board <board@example.org>$/m);
    const code = /^Subject: Your sign-in code: (\d{6})$/m.exec(received[0].message)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const confirm = await t.request('POST', '/api/auth/confirm-code', {
      json: { login_id: login.body.data.login_id, code },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body.data.user.email).toBe('school2@example.org');
  });

  it('writes no mail file when SMTP is configured', async () => {
    expect(fs.existsSync(path.join(t.dataDir, 'mail'))).toBe(false);
  });
});

describe('an SMTP server that stops answering', () => {
  it('fails the mail after its silence, so the job is retried rather than left waiting', async () => {
    const silent = await startSmtpServer({ holding: true });
    const mailer = createMailer({
      smtpUrl: silent.url,
      from: 'board@example.org',
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'mail-silent-')),
      log: { info: () => {}, error: () => {}, warn: () => {} } as unknown as Logger,
      silenceMs: 1_000,
    });
    try {
      const started = performance.now();
      const sent = mailer.send({ to: 'school1@example.org', kind: 'sign-in code', subject: 'S', text: 'T' });
      await expect(sent).rejects.toThrow();
      // The server held the mail in the middle (its MAIL FROM), and the wait ended at the silence.
      expect(silent.held).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      mailer.close();
      await silent.close();
    }
  });
});
