import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import {
  SCHOOL_ADMIN_MESSAGES as A,
  SCHOOL_MESSAGES,
  SCHOOL_SEARCH_MAX,
  SCHOOL_STATUSES,
  type SchoolStatus,
} from '../../contract/schools';
import {
  adminActiveValidator,
  schoolAdminValidator,
  schoolStatusValidator,
  schoolValidator,
} from '../../contract/schools.validators';
import { trainingSchools } from '../db/schema';
import { transact, type AppContext } from '../http/context';
import { containsPattern, readPage, readPaging } from '../http/paging';
import { idOf } from '../http/params';
import { invalid, ok } from '../http/respond';
import { ADMIN, get, post, type Route } from '../http/route';
import { json } from '../http/validate';
import { mailResetCode } from '../schools/accounts';
import * as schools from '../schools/service';
import { schoolColumns, withAdmins } from '../schools/service';

const isStatus = (value: string): value is SchoolStatus =>
  (SCHOOL_STATUSES as readonly string[]).includes(value);

/** GET ?search=&status=&page=&per_page=: ordered by name, paged in SQL. */
async function listSchools(c: AppContext) {
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
  if (isStatus(status)) conditions.push(eq(trainingSchools.status, status));
  const where = conditions.length ? and(...conditions) : undefined;

  // A few hundred schools: ordered by name (its index) and paged by number.
  const page = await readPage(
    db,
    paging,
    {
      rows: () => db.select(schoolColumns).from(trainingSchools).$dynamic(),
      where,
      matching: () =>
        db
          .select({ one: sql`1` })
          .from(trainingSchools)
          .$dynamic(),
      order: { orderBy: [asc(trainingSchools.name), asc(trainingSchools.id)] },
    },
    (school) => school,
  );
  return ok(c, { ...page, items: await withAdmins(db, page.items) });
}

const schoolId = (c: AppContext) => idOf(c, SCHOOL_MESSAGES.notFound);
const adminId = (c: AppContext) => idOf(c, A.notFound);

/** The training schools and their admin accounts, for the board (server/schools/service.ts). */
export const schoolRoutes: Route[] = [
  get('/api/admin/training-schools', ADMIN, listSchools),

  post('/api/admin/training-schools', ADMIN, json(schoolValidator), async (c) => {
    const school = await transact(c, (tx, actor) => schools.createSchool(tx, actor, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.created);
  }),

  post('/api/admin/training-schools/:id', ADMIN, json(schoolValidator), async (c) => {
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.updateSchool(tx, actor, id, c.req.valid('json')));
    return ok(c, school, SCHOOL_MESSAGES.updated);
  }),

  post('/api/admin/training-schools/:id/status', ADMIN, json(schoolStatusValidator), async (c) => {
    const { status } = c.req.valid('json');
    const id = schoolId(c);
    const school = await transact(c, (tx, actor) => schools.setSchoolStatus(tx, actor, id, status));
    return ok(c, school, status === 'active' ? SCHOOL_MESSAGES.activated : SCHOOL_MESSAGES.suspended);
  }),

  post('/api/admin/training-schools/:id/admins', ADMIN, json(schoolAdminValidator), async (c) => {
    const id = schoolId(c);
    const added = await transact(c, (tx, actor) =>
      schools.addSchoolAdmin(tx, actor, id, c.req.valid('json')),
    );
    // Mailed once the account is committed: a mail about an account that was rolled back helps nobody.
    await mailResetCode(c, added.email, added.code, true);
    return ok(c, added.admin, A.created);
  }),

  post('/api/admin/school-admins/:id/active', ADMIN, json(adminActiveValidator), async (c) => {
    const input = c.req.valid('json');
    const id = adminId(c);
    const admin = await transact(c, (tx, actor) => schools.setAdminActive(tx, actor, id, input));
    return ok(c, admin, input.active ? A.reactivated : A.deactivated);
  }),

  post('/api/admin/school-admins/:id/password-reset', ADMIN, async (c) => {
    const id = adminId(c);
    const sent = await transact(c, (tx, actor) => schools.sendPasswordReset(tx, actor, id));
    await mailResetCode(c, sent.email, sent.code, false);
    return ok(c, undefined, A.resetSent);
  }),
];
