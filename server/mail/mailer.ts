import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../log';

/** Which mail it is: what a log line says of a mail sent through SMTP, in place of its words. */
type MailKind =
  | 'sign-in code'
  | 'password reset code'
  | 'new account'
  | 'requested reset code'
  | 'registration reminder'
  | 'broadcast'
  | 'broadcast reminder'
  | 'conversation answer'
  | 'board invitation';

/**
 * Mails whose words carry a link that works by itself (an invitation's link holds its code): even the
 * mail files' log line leaves their subject and text out, so the link reaches the mailbox and no log.
 */
const UNLOGGED_WORDS: ReadonlySet<MailKind> = new Set(['board invitation']);

export interface Mail {
  to: string;
  kind: MailKind;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Where mail ends up, for the start banner. */
  describe(): string;
  close(): void;
}

/** How long an SMTP server may stay silent mid-mail before the mail fails (and its job is retried). */
const SMTP_SILENCE_MS = 20_000;

/**
 * SMTP when SMTP_URL is set; otherwise RFC 822 files under DATA_DIR/mail and a line in the log, so a
 * machine with no mail server can still read its sign-in codes. Through SMTP the log says to whom and
 * which kind of mail, never the subject or the text: they carry codes, and a log is read by more people
 * (and kept longer) than a mailbox.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  log: Logger;
  /** How long an SMTP server may stay silent before a mail fails (tests shorten it). */
  silenceMs?: number;
}): Mailer {
  if (options.smtpUrl) {
    // Bounded waits (nodemailer's own: 2 minutes to connect, 10 of silence): a mail job expires after
    // 30 s (server/jobs/index.ts), and a handler still waiting on a silent server past that would linger.
    const silence = options.silenceMs ?? SMTP_SILENCE_MS;
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: silence / 2,
      greetingTimeout: silence / 2,
      socketTimeout: silence,
    });
    const host = new URL(options.smtpUrl).host;
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
        options.log.info('mail.sent', { to: mail.to, kind: mail.kind, via: host });
      },
      describe: () => `SMTP at ${host}`,
      close: () => transport.close(),
    };
  }
  const dir = path.join(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Two mails to one address in the same millisecond (a burst of reset requests) must not share a file.
  let written = 0;
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      written += 1;
      const sequence = String(written).padStart(6, '0');
      const file = path.join(dir, `${stamp}-${sequence}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.log.info('mail.written', {
        to: mail.to,
        kind: mail.kind,
        file,
        ...(UNLOGGED_WORDS.has(mail.kind) ? {} : { subject: mail.subject, text: mail.text }),
      });
    },
    describe: () => `files under ${dir} (no SMTP_URL set)`,
    close: () => {},
  };
}
