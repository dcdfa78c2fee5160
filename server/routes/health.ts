import { get, PUBLIC, type Route } from '../http/route';

/** For load balancers and for `npm run bench`: which database, and whether its migrations are current. */
export const healthRoutes: Route[] = [
  get('/api/health', PUBLIC, async (c) => {
    const { database } = c.get('deps');
    const migrations = await database.migrationState();
    const healthy = migrations.current;
    return c.json({ success: healthy, data: { driver: database.driver, migrations } }, healthy ? 200 : 503);
  }),
];
