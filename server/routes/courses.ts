import { asc, ilike, or, sql } from 'drizzle-orm';
import { COURSE_MESSAGES as M, COURSE_SEARCH_MAX, statusChangedMessage } from '../../contract/courses';
import {
  courseHeaderValidator,
  indexingStatusValidator,
  registrationStatusValidator,
} from '../../contract/courses.validators';
import { courseHeaders } from '../db/schema';
import { columns, withCounts } from '../courses/service';
import * as courses from '../courses/service';
import { transact, type AppContext } from '../http/context';
import { containsPattern, readPage, readPaging } from '../http/paging';
import { idOf } from '../http/params';
import { invalid, ok } from '../http/respond';
import { ADMIN, get, post, type Route } from '../http/route';
import { json } from '../http/validate';

/** GET /course-headers `?search=&page=&per_page=`: ordered by code, searched in code and title. */
async function listCourseHeaders(c: AppContext) {
  const search = (c.req.query('search') ?? '').trim();
  if (search.length > COURSE_SEARCH_MAX) return invalid(c, { search: [M.tooLong] });
  const paging = readPaging(c);
  const db = c.get('deps').database.db;
  const pattern = containsPattern(search);
  const where = search
    ? or(ilike(courseHeaders.code, pattern), ilike(courseHeaders.title, pattern))
    : undefined;
  const page = await readPage(
    db,
    paging,
    {
      rows: () => db.select(columns).from(courseHeaders).$dynamic(),
      where,
      matching: () =>
        db
          .select({ one: sql`1` })
          .from(courseHeaders)
          .$dynamic(),
      order: { orderBy: [asc(courseHeaders.code)] },
    },
    (row) => row,
  );
  return ok(c, { ...page, items: await withCounts(db, page.items) });
}

const courseId = (c: AppContext) => idOf(c, M.notFound);

/** The board's course headers: list, create, edit, and each row's two statuses (server/courses/service.ts). */
export const courseRoutes: Route[] = [
  get('/api/admin/course-headers', ADMIN, listCourseHeaders),

  post('/api/admin/course-headers', ADMIN, json(courseHeaderValidator), async (c) => {
    const row = await transact(c, (tx, actor) => courses.createCourseHeader(tx, actor, c.req.valid('json')));
    return ok(c, row, M.created);
  }),

  post('/api/admin/course-headers/:id', ADMIN, json(courseHeaderValidator), async (c) => {
    const id = courseId(c);
    const row = await transact(c, (tx, actor) =>
      courses.updateCourseHeader(tx, actor, id, c.req.valid('json')),
    );
    return ok(c, row, M.updated);
  }),

  post('/api/admin/course-headers/:id/indexing-status', ADMIN, json(indexingStatusValidator), async (c) => {
    const value = c.req.valid('json').indexing_status;
    const id = courseId(c);
    const row = await transact(c, (tx, actor) =>
      courses.setCourseStatus(tx, actor, id, 'indexing_status', value),
    );
    return ok(c, row, statusChangedMessage(row.code, 'indexing_status', value));
  }),

  post(
    '/api/admin/course-headers/:id/registration-status',
    ADMIN,
    json(registrationStatusValidator),
    async (c) => {
      const value = c.req.valid('json').registration_status;
      const id = courseId(c);
      const row = await transact(c, (tx, actor) =>
        courses.setCourseStatus(tx, actor, id, 'registration_status', value),
      );
      return ok(c, row, statusChangedMessage(row.code, 'registration_status', value));
    },
  ),
];
