import { onWrite } from './client';

/**
 * Answers asked for before the page that shows them has mounted (a signed-in page opened cold, or chosen
 * in the sidebar: src/shell/pageChunks.ts `askPageData`, `preloadFromShell`), for loads a machine makes
 * itself (the registration window, a list's first page). The machine's first load of the same key takes
 * the answer, once, if it is fresh; every later load asks the server, as before. Pages that read through
 * Suspense use `prefetchResource` (src/app/resource.tsx) instead.
 */
const early = new Map<string, { answer: Promise<unknown>; at: number }>();
const FRESH_MS = 30_000;

// Any change the portal accepts makes them stale, as the resource cache's answers.
onWrite(() => early.clear());

export function askEarly(key: string, load: () => Promise<unknown>): void {
  const answer = load();
  answer.catch(() => {}); // Its failure is the page's to show, when it takes the answer.
  early.set(key, { answer, at: Date.now() });
}

/** The answer asked for early under `key`, once, or a fresh `load()`. */
export function takeEarly<T>(key: string, load: () => Promise<T>): Promise<T> {
  const kept = early.get(key);
  early.delete(key);
  return kept && Date.now() - kept.at < FRESH_MS ? (kept.answer as Promise<T>) : load();
}
