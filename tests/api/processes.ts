import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The portal as its own process (server/main.ts, as `npm start` runs it), for tests that kill it or
 * watch it fail to start: everything it writes is kept, and its exit is awaited.
 */
export interface PortalProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Its exit code (null after a signal), once it has exited. */
  exited: Promise<number | null>;
  /** Resolves with the portal's address once it listens; rejects if it exits first. */
  listening(): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export function spawnPortal(env: Record<string, string | undefined>): PortalProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: env as NodeJS.ProcessEnv,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    listening: () =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
          if (url) resolve(url.replace('localhost', '127.0.0.1'));
        };
        child.stdout!.on('data', check);
        check();
        void exited.then((code) => reject(new Error(`the portal stopped (${code}):\n${output}`)));
      }),
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The environment a test portal process starts from: this one's, without settings a test must choose. */
export function baseEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ['QUIET', 'DEBUG', 'DATABASE_URL', 'S3_BUCKET', 'SMTP_URL', 'PORT', 'DATA_DIR']) {
    delete env[name];
  }
  return env;
}
