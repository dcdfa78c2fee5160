import { COURSE_MESSAGES as M, statusChangedMessage } from '../../contract/courses';
import { COURSE_ENDPOINTS as E } from '../../contract/courses.endpoints';
import * as courses from '../courses/service';
import { transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

const courseId = (c: AppContext) => idOf(c, M.notFound);

/** The board's course headers: create, edit, and each row's two statuses (server/courses/service.ts). */
export const courseRoutes: Route[] = [
  serve(E.create, async (c) => {
    const row = await transact(c, (tx, actor) => courses.createCourseHeader(tx, actor, c.req.valid('json')));
    return ok(c, row, M.created);
  }),

  serve(E.update, async (c) => {
    const id = courseId(c);
    const row = await transact(c, (tx, actor) =>
      courses.updateCourseHeader(tx, actor, id, c.req.valid('json')),
    );
    return ok(c, row, M.updated);
  }),

  serve(E.indexingStatus, async (c) => {
    const value = c.req.valid('json').indexing_status;
    const id = courseId(c);
    const row = await transact(c, (tx, actor) =>
      courses.setCourseStatus(tx, actor, id, 'indexing_status', value),
    );
    return ok(c, row, statusChangedMessage(row.code, 'indexing_status', value));
  }),

  serve(E.registrationStatus, async (c) => {
    const value = c.req.valid('json').registration_status;
    const id = courseId(c);
    const row = await transact(c, (tx, actor) =>
      courses.setCourseStatus(tx, actor, id, 'registration_status', value),
    );
    return ok(c, row, statusChangedMessage(row.code, 'registration_status', value));
  }),
];
