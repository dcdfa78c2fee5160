/**
 * The first reads of a signed-in page opened cold, asked for by the page's first script before the
 * entry, React and this client have arrived (src/shell/coldReads.ts, written into that script by
 * scripts/prerenderLogin.ts), which leaves them here. The API client's `call` takes each answer, once,
 * for the same GET (src/api/client.ts) and reads it as its own (a 401 ends the session as always).
 * Kept for FRESH_MS at most; any change the portal accepts forgets them.
 */
interface ColdReads {
  /** When the script asked (Date.now()). */
  at: number;
  /** By URL (the API's address and the path). */
  answers: Record<string, Promise<Response>>;
}

declare global {
  // The page's first script is not a module of the app: a global is how it hands its answers over.
  var __coldReads: ColdReads | undefined;
}

const FRESH_MS = 30_000;

/** The answer the page's first script asked for at `url`, once, if it is fresh. */
export function takeCold(url: string): Promise<Response> | null {
  const cold = globalThis.__coldReads;
  const answer = cold?.answers[url];
  if (!cold || !answer) return null;
  delete cold.answers[url];
  return Date.now() - cold.at < FRESH_MS ? answer : null;
}

export const forgetCold = () => {
  globalThis.__coldReads = undefined;
};
