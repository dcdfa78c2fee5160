import { fromPromise } from 'xstate';
import type { SchoolNotice } from '../../contract/notifications';
import { NOTIFICATION_READS } from '../../contract/notifications.reads';
import { send } from './send';

/**
 * The area's endpoints, imported when first called: the object names the area's lists, so it brings
 * every list definition (contract/lists.ts), which the shell's dashboard (the school notices) does
 * without until a list page opens.
 */
const endpoints = () =>
  import('../../contract/notifications.endpoints').then((module) => module.NOTIFICATION_ENDPOINTS);

/** The notifications list's row action: mark one (`{ id }`) or every unread one (`{ all: true }`);
 * `then` runs after the server has done it (the bell's count refreshes). */
export const markRead = (then: () => void) =>
  fromPromise<{ message?: string }, { action: string; payload: unknown }>(async ({ input }) => {
    const body = input.payload as Record<string, unknown>;
    const { message } = await send((await endpoints()).markRead, { body });
    then();
    return { message };
  });

/** What the board has told the caller's school, newest first (the school's dashboard). */
export const loadSchoolNotices = async (): Promise<SchoolNotice[]> =>
  (await send(NOTIFICATION_READS.schoolNotices)).data;
