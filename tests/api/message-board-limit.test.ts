import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGES } from '../../contract/notifications';
import { NOTIFICATION_ENDPOINTS } from '../../contract/notifications.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { notifications, throttleHits } from '../../server/db/schema';
import { MESSAGE_LIMIT } from '../../server/notifications/service';
import { userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * 'Message the board' is limited per school admin, the place checked and taken in one statement:
 * a burst of requests sent at once over HTTP gets exactly the places left, no more.
 */

let t: TestPortal;
let schoolAdminId: number;
let token: string;
const db = () => t.portal.database.db;
const BURST = 100;
const LEFT = 10;

beforeAll(async () => {
  t = await startTestPortal();
  schoolAdminId = await userIdOf(t, 'school1@example.org');
  token = (await issueToken(db(), schoolAdminId, 60)).token;
});
afterAll(() => t?.close());

const sent = async () =>
  (
    await db()
      .select({ total: count() })
      .from(notifications)
      .where(and(eq(notifications.kind, 'school.message'), eq(notifications.createdBy, schoolAdminId)))
  )[0].total;

describe('a burst at the message board', () => {
  it(`${BURST} messages at once with ${LEFT} places left: exactly ${LEFT} are taken, the rest are 429`, async () => {
    const bucket = `message-board:user:${schoolAdminId}`;
    await db()
      .insert(throttleHits)
      .values(Array.from({ length: MESSAGE_LIMIT.max - LEFT }, () => ({ bucket })));
    const before = await sent();

    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        t.request('POST', NOTIFICATION_ENDPOINTS.messageBoard.path, {
          token,
          json: { subject: `Burst ${i}`, message: 'All at once.' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(LEFT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(BURST - LEFT);
    for (const response of responses.filter((r) => r.status === 429)) {
      expect(response.body).toEqual({ success: false, message: NOTIFICATION_MESSAGES.tooManyMessages });
    }
    expect(await sent()).toBe(before + LEFT);
    const [{ hits }] = await db()
      .select({ hits: count() })
      .from(throttleHits)
      .where(eq(throttleHits.bucket, bucket));
    expect(hits).toBe(MESSAGE_LIMIT.max);
  });
});
