import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The whole RFC 822 message, headers and body. */
  message: string;
}

/**
 * A real SMTP server on a loopback port (smtp-server, from the npm registry), for tests that set
 * SMTP_URL: the portal's mail travels over SMTP to it, and each mail lands in `received`. While
 * `holding`, a sender's MAIL FROM is never answered: the sender waits in the middle of its mail (a job
 * caught sending), and `held` lists who was kept waiting.
 */
export async function startSmtpServer({ holding = false }: { holding?: boolean } = {}) {
  const received: ReceivedMail[] = [];
  const held: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(address, _session, callback) {
      if (holding) held.push(address.address);
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          message: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    held,
    release: () => {
      holding = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
