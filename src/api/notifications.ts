import { fromPromise } from 'xstate';
import { NOTIFICATION_PATHS } from '../../contract/notifications';
import { call } from './client';

/** The notifications list's row action: mark one (`{ id }`) or every unread one (`{ all: true }`);
 * `then` runs after the server has done it (the bell's count refreshes). */
export const markRead = (then: () => void) =>
  fromPromise<{ message?: string }, { action: string; payload: unknown }>(async ({ input }) => {
    const response = await call(NOTIFICATION_PATHS.markRead, {
      method: 'POST',
      body: input.payload as Record<string, unknown>,
    });
    then();
    return { message: typeof response.message === 'string' ? response.message : undefined };
  });
