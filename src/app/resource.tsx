import { Component, use, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { onWrite } from '../api/client';
import { Alert, Button } from '../ui/controls';

/**
 * One-shot loads for a page (the form's choices, one record), read with React's `use` under Suspense:
 * no effect, no loading flag in the view. Answers are kept for a minute, so going back and forth on a
 * slow link does not load them again, until the user changes something. A failure is kept too, so the page that reads it shows it once
 * (a new promise at every render would ask the server again at every render, for ever); the boundary's
 * "Try again" forgets the failures and asks again.
 */
const cache = new Map<string, { promise: Promise<unknown>; at: number; failed: boolean }>();
const FRESH_MS = 60_000;

// The one invalidation rule: any change the portal accepts makes every kept load stale (a saved
// candidate, a renamed school, a closed course header), so the next page that reads one asks again; a
// page already on screen keeps what it shows (it reads its load once, when it mounts). Writes are rare
// beside reads, and a rule that names no keys cannot miss one.
onWrite(() => cache.forEach((entry) => (entry.at = 0)));

function resource<T>(key: string, load: () => Promise<T>): Promise<T> {
  let entry = cache.get(key);
  if (!entry || (!entry.failed && Date.now() - entry.at > FRESH_MS)) {
    const fresh = { promise: load(), at: Date.now(), failed: false };
    fresh.promise.catch(() => (fresh.failed = true));
    cache.set(key, fresh);
    entry = fresh;
  }
  return entry.promise as Promise<T>;
}

export function useResource<T>(key: string, load: () => Promise<T>): T {
  // Once a mount: a page on screen is not replaced by "Loading…" when a save makes its load stale.
  // `load` is left out on purpose: callers pass a new arrow at each render for the same key.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const promise = useMemo(() => resource(key, load), [key]);
  return use(promise);
}

// A page's own load read again on demand (after one of its dialogs saves): each key's reload count, and
// the pages reading a key re-render when it moves, so no page keeps a counter of its own.
const reloads = new Map<string, number>();
const reloadListeners = new Set<() => void>();
const onReload = (listener: () => void) => {
  reloadListeners.add(listener);
  return () => reloadListeners.delete(listener);
};

/** Reads the load of `key` again, and shows it on every page reading it (useReloadable). */
export function reloadResource(key: string) {
  cache.delete(key);
  reloads.set(key, (reloads.get(key) ?? 0) + 1);
  reloadListeners.forEach((listener) => listener());
}

/**
 * useResource for a load the page changes itself (a sheet's third marker, a course's papers): the
 * same answer until `reloadResource(key)` (or the reload this answers) asks the server again.
 */
export function useReloadable<T>(key: string, load: () => Promise<T>): [T, () => void] {
  const round = useSyncExternalStore(onReload, () => reloads.get(key) ?? 0);
  // `load` is left out on purpose, as in useResource.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const promise = useMemo(() => resource(key, load), [key, round]);
  return [use(promise), () => reloadResource(key)];
}

/** Starts a load now, for a page about to read it (its failure is shown when the page reads it). */
export function prefetchResource<T>(key: string, load: () => Promise<T>): void {
  resource(key, load).catch(() => {});
}

/** Forgets every load that failed, so the next read asks again. */
function forgetFailedResources() {
  for (const [key, entry] of cache) if (entry.failed) cache.delete(key);
}

/**
 * Shows a failed load in the user's words, with a way to try again, and `after` it the way elsewhere
 * a page offers (a print page's link back to Print Documents).
 */
export class LoadBoundary extends Component<
  { children: ReactNode; after?: ReactNode },
  { error: unknown; attempt: number }
> {
  state = { error: null as unknown, attempt: 0 };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error) {
      // The portal's answers are said in the user's words already; anything else (a chunk that did not
      // arrive, a script error) is not for the user to read.
      const error = this.state.error;
      const answered = typeof error === 'object' && error && 'status' in error && 'message' in error;
      const message = answered
        ? String((error as { message: unknown }).message)
        : 'This page could not be loaded. Check your connection and try again.';
      // The portal's refusals (a parameter missing, not found, not allowed) answer the same again: no
      // "Try again" for those. A lost connection, a server fault or a rate limit may pass.
      const status = answered ? Number((error as { status: unknown }).status) : 0;
      const mayPass = status === 0 || status === 408 || status === 429 || status >= 500;
      return (
        <Alert tone="error">
          {message}
          {mayPass && (
            <>
              {' '}
              <Button
                variant="link"
                onClick={() => {
                  forgetFailedResources();
                  this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));
                }}
              >
                Try again
              </Button>
            </>
          )}
          {this.props.after}
        </Alert>
      );
    }
    return <div key={this.state.attempt}>{this.props.children}</div>;
  }
}
