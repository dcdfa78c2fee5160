import { Hono } from 'hono';
import type { AppEnv } from '../http/context';

/** For load balancers and for `npm run bench`: which database, and whether its migrations are current. */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { database } = c.get('deps');
  const migrations = await database.migrationState();
  const healthy = migrations.current;
  return c.json({ success: healthy, data: { driver: database.driver, migrations } }, healthy ? 200 : 503);
});
