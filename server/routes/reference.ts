import { asc } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Nationality } from '../../contract/nationalities';
import { nationalities } from '../db/schema';
import type { AppEnv } from '../http/context';
import { ok } from '../http/respond';

/** Reference lists both roles need; mounted under each role's prefix (spec section 7). */
export const referenceRoutes = new Hono<AppEnv>().get('/nationality', async (c) => {
  const rows: Nationality[] = await c
    .get('deps')
    .database.db.select({ code: nationalities.code, name: nationalities.name })
    .from(nationalities)
    .orderBy(asc(nationalities.position));
  // The same for everyone and rarely changed: the browser may keep it for an hour.
  c.header('Cache-Control', 'private, max-age=3600');
  return ok(c, rows);
});
