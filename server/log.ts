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

/** Quoted text in a database message: it may be a value a query was given (`invalid input: "…"`). */
const QUOTED = /"[^"]*"|'[^']*'/g;

/** Only the stack's frames: its first lines repeat the message. */
const framesOf = (stack: string | undefined) =>
  (stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .map((line) => line.trim());

/**
 * An unexpected error as a log line's fields, without what a query was given: Drizzle puts the SQL's
 * parameters (emails, hashes, codes) in its message, and the database quotes values in its own, so the
 * SQL text, the database's code and the names it gives are kept, and quoted text is not.
 */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: typeof error };
  const query = (error as { query?: unknown }).query;
  const message = typeof query === 'string' ? `Failed query: ${query}` : error.message.replace(QUOTED, '"…"');
  const fields: Record<string, unknown> = {
    error: `${error.name}: ${message}`,
    stack: framesOf(error.stack),
  };
  const cause = error.cause as
    | {
        name?: unknown;
        message?: unknown;
        code?: unknown;
        constraint?: unknown;
        table?: unknown;
        column?: unknown;
      }
    | undefined;
  if (cause && typeof cause === 'object') {
    fields.cause = {
      name: cause.name,
      code: cause.code,
      constraint: cause.constraint,
      table: cause.table,
      column: cause.column,
      message: typeof cause.message === 'string' ? cause.message.replace(QUOTED, '"…"') : undefined,
    };
  }
  return fields;
}
