import { count } from 'drizzle-orm';
import type { Database } from './client';
import { users } from './schema';

/** What an empty database is filled with: the demo (server/db/demo/, one file per area). */
export { DEMO_PASSWORD, DEMO_SIGN_INS } from './demo/accounts';
export { seedDemo, seedSignIns } from './demo';

export async function isEmpty(db: Database): Promise<boolean> {
  const [{ total }] = await db.select({ total: count() }).from(users);
  return total === 0;
}
