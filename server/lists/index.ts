import { Hono } from 'hono';
import {
  CANDIDATES_LIST,
  COURSE_HEADERS_LIST,
  NOTIFICATION_LISTS,
  OFFENDERS_LIST,
  REGISTERED_LISTS,
  RESITS_LISTS,
  SCHOOLS_LIST,
} from '../../contract/lists';
import { candidateSource } from '../candidates/list';
import type { AppEnv } from '../http/context';
import { listHandler } from './route';
import { courseHeaderSource, notificationSource, offenderSource, resitSource, schoolSource } from './sources';

/** Where a list's path is served from inside the API routes (which the app mounts at /api). */
const underApi = (path: string) => path.replace(/^\/api/, '');

/**
 * Every list of the portal: each definition (contract/lists.ts) with its source, as its GET route.
 * Who may call each is its definition's `roles` (and the access matrix, server/access.ts).
 */
export const listRoutes = new Hono<AppEnv>()
  .get(underApi(CANDIDATES_LIST.path), listHandler(CANDIDATES_LIST, candidateSource))
  .get(underApi(REGISTERED_LISTS.admin.path), listHandler(REGISTERED_LISTS.admin, candidateSource))
  .get(
    underApi(REGISTERED_LISTS.school_admin.path),
    listHandler(REGISTERED_LISTS.school_admin, candidateSource),
  )
  .get(underApi(SCHOOLS_LIST.path), listHandler(SCHOOLS_LIST, schoolSource))
  .get(underApi(COURSE_HEADERS_LIST.path), listHandler(COURSE_HEADERS_LIST, courseHeaderSource))
  .get(underApi(OFFENDERS_LIST.path), listHandler(OFFENDERS_LIST, offenderSource))
  .get(underApi(RESITS_LISTS.admin.path), listHandler(RESITS_LISTS.admin, resitSource))
  .get(underApi(RESITS_LISTS.school_admin.path), listHandler(RESITS_LISTS.school_admin, resitSource))
  .get(
    underApi(NOTIFICATION_LISTS.unread.path),
    listHandler(NOTIFICATION_LISTS.unread, notificationSource(false)),
  )
  .get(
    underApi(NOTIFICATION_LISTS.read.path),
    listHandler(NOTIFICATION_LISTS.read, notificationSource(true)),
  );
