import { ADMIN, endpoint, shape } from './endpoint';
import type { CourseHeaderRow } from './courses';
import {
  courseHeaderValidator,
  indexingStatusValidator,
  registrationStatusValidator,
} from './courses.validators';
import { COURSE_HEADERS_LIST } from './lists';

/** Everything the browser may ask of the course headers (the board's alone). */
export const COURSE_ENDPOINTS = {
  list: COURSE_HEADERS_LIST,
  create: endpoint({
    method: 'POST',
    path: '/api/admin/course-headers',
    roles: ADMIN,
    summary: 'Create a course header',
    input: { in: 'json', validator: courseHeaderValidator },
    answer: shape<CourseHeaderRow>(),
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/admin/course-headers/:id',
    roles: ADMIN,
    summary: "Edit a course header's code and title",
    input: { in: 'json', validator: courseHeaderValidator },
    answer: shape<CourseHeaderRow>(),
  }),
  indexingStatus: endpoint({
    method: 'POST',
    path: '/api/admin/course-headers/:id/indexing-status',
    roles: ADMIN,
    summary: 'Open or close a course header for indexing',
    input: { in: 'json', validator: indexingStatusValidator },
    answer: shape<CourseHeaderRow>(),
  }),
  registrationStatus: endpoint({
    method: 'POST',
    path: '/api/admin/course-headers/:id/registration-status',
    roles: ADMIN,
    summary: 'Open or close a course header for registration',
    input: { in: 'json', validator: registrationStatusValidator },
    answer: shape<CourseHeaderRow>(),
  }),
} as const;
