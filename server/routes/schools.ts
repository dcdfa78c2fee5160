import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  SCHOOL_MESSAGES,
  SCHOOL_SEARCH_MAX,
  SCHOOL_STATUSES,
  type SchoolStatus,
  type SchoolRow,
} from '../../contract/schools';
import { trainingSchools, users } from '../db/schema';
import type { AppEnv } from '../http/context';
import { containsPattern, pageOf, readPaging } from '../http/paging';
import { invalid, ok } from '../http/respond';

const isStatus = (value: string): value is SchoolStatus =>
  (SCHOOL_STATUSES as readonly string[]).includes(value);

/**
 * The training schools with their admins, for the board (and for starting an impersonation from).
 * One page in SQL, ordered by name (the name index), and the page's admins in one more query.
 */
export const schoolRoutes = new Hono<AppEnv>().get('/training-schools', async (c) => {
  const search = (c.req.query('search') ?? '').trim();
  const status = (c.req.query('status') ?? '').trim();
  if (search.length > SCHOOL_SEARCH_MAX) return invalid(c, { search: [SCHOOL_MESSAGES.searchTooLong] });
  if (status && !isStatus(status)) return invalid(c, { status: [SCHOOL_MESSAGES.statusInvalid] });
  const paging = readPaging(c);
  const db = c.get('deps').database.db;

  const conditions: SQL[] = [];
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(or(ilike(trainingSchools.code, pattern), ilike(trainingSchools.name, pattern))!);
  }
  if (status) conditions.push(eq(trainingSchools.status, status));
  const where = conditions.length ? and(...conditions) : undefined;

  const [{ total }] = await db.select({ total: count() }).from(trainingSchools).where(where);
  const schools = await db
    .select({
      id: trainingSchools.id,
      code: trainingSchools.code,
      name: trainingSchools.name,
      state: trainingSchools.state,
      country: trainingSchools.country,
      status: trainingSchools.status,
    })
    .from(trainingSchools)
    .where(where)
    .orderBy(asc(trainingSchools.name), asc(trainingSchools.id))
    .limit(paging.perPage)
    .offset(paging.offset);

  const admins = schools.length
    ? await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          active: users.active,
          schoolId: users.trainingSchoolId,
        })
        .from(users)
        .where(
          and(
            inArray(
              users.trainingSchoolId,
              schools.map((school) => school.id),
            ),
            eq(users.role, 'school_admin'),
          ),
        )
        .orderBy(asc(users.name), asc(users.id))
    : [];

  const items: SchoolRow[] = schools.map((school) => ({
    ...school,
    // Written only by this server, from SCHOOL_STATUSES.
    status: school.status as SchoolStatus,
    admins: admins
      .filter((admin) => admin.schoolId === school.id)
      .map(({ id, name, email, active }) => ({ id, name, email, active })),
  }));
  return ok(c, pageOf(items, paging, total));
});
