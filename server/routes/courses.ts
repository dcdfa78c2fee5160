import { COURSE_MESSAGES as M, statusChangedMessage } from '../../contract/courses';
import {
  courseHeaderValidator,
  indexingStatusValidator,
  registrationStatusValidator,
} from '../../contract/courses.validators';
import * as courses from '../courses/service';
import { transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { ADMIN, post, type Route } from '../http/route';
import { json } from '../http/validate';

const courseId = (c: AppContext) => idOf(c, M.notFound);

/** The board's course headers: list, create, edit, and each row's two statuses (server/courses/service.ts). */
export const courseRoutes: Route[] = [
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
