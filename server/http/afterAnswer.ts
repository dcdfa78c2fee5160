import type { HttpBindings } from '@hono/node-server';
import type { AppContext } from './context';

/**
 * Runs `then` once the answer has been handed to the network (the socket's `finish`), or at once for a
 * request that came without a socket (`app.request` in a script). For work a route starts that must not
 * share the answer's time.
 */
export function afterAnswer(c: AppContext, then: () => void): void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (!outgoing) return void queueMicrotask(then);
  const run = () => {
    outgoing.off('finish', run);
    outgoing.off('close', run);
    then();
  };
  // `close` as well: a client that went away before the answer was written still has its job run.
  outgoing.once('finish', run);
  outgoing.once('close', run);
}
