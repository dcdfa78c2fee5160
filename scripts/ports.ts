import { execFileSync } from 'node:child_process';
import net from 'node:net';

/**
 * Ports for the test suites and the bench, chosen free at run time (issue 22), so two checkouts can run
 * their suites side by side on one machine. The OS is asked for port 0 (any free port), which is then
 * closed again and handed to the portal that will listen on it.
 */

const ASK_THE_OS = `
const server = require('node:net').createServer();
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(String(server.address().port));
  server.close();
});
`;

/** A free port now, synchronously (for config files, which cannot wait): asked in a short child process. */
function freePortSync(): number {
  const port = Number(execFileSync(process.execPath, ['-e', ASK_THE_OS], { encoding: 'utf8' }));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`The OS gave no free port (${port}).`);
  return port;
}

/** A free port now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The port in the environment variable `name`, or a free one chosen now and written into the
 * environment, so every later reading in this process, and every process it starts (Playwright's and
 * vitest's workers, which evaluate the config again), gets the same port.
 */
export function portFromEnv(name: string): number {
  const given = process.env[name];
  if (given) {
    const port = Number(given);
    if (!Number.isInteger(port) || port <= 0 || port > 65535)
      throw new Error(`${name} must be a port number.`);
    return port;
  }
  const port = freePortSync();
  process.env[name] = String(port);
  return port;
}
