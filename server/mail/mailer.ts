import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../http/log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Where mail ends up, for the start banner. */
  describe(): string;
  close(): void;
}

/** SMTP when SMTP_URL is set; otherwise RFC 822 files under DATA_DIR/mail and a line in the log, so a
 * machine with no mail server can still read its sign-in codes. */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  dataDir: string;
  log: Logger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const host = new URL(options.smtpUrl).host;
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
        options.log.info('mail.sent', { to: mail.to, subject: mail.subject, via: host });
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
      const info = await transport.sendMail({ from: options.from, ...mail });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      written += 1;
      const sequence = String(written).padStart(6, '0');
      const file = path.join(dir, `${stamp}-${sequence}-${mail.to.replace(/[^a-z0-9@._-]/gi, '_')}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      options.log.info('mail.written', { to: mail.to, subject: mail.subject, file, text: mail.text });
    },
    describe: () => `files under ${dir} (no SMTP_URL set)`,
    close: () => {},
  };
}
