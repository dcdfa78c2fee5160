import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { startTestPortal, type TestPortal } from './portal';

/** With SMTP_URL set, the sign-in code travels over real SMTP (a local SMTP server on loopback). */
const received: { to: string[]; message: string }[] = [];
let smtp: SMTPServer;
let smtpPort = 0;
let t: TestPortal;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          message: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  t = await startTestPortal({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Board <board@example.org>',
  });
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
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
