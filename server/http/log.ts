/** One JSON object a line on stdout: easy to read in a terminal, easy to ship to a log store. */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function createLogger(enabled = true): Logger {
  const write = (level: string, event: string, fields?: Record<string, unknown>) => {
    if (!enabled && level === 'info') return;
    const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
    (level === 'error' ? process.stderr : process.stdout).write(line + '\n');
  };
  return {
    info: (event, fields) => write('info', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}
