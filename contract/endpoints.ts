import { COURSE_ENDPOINTS } from './courses.endpoints';
import type { EndpointGroup } from './endpoint';
import { HEALTH_ENDPOINTS } from './health.endpoints';
import { LISTS } from './lists';

/**
 * Every area's endpoints, by area: what the access matrix (server/access.ts), the OpenAPI document
 * (scripts/openapi.ts) and the matrix test read. The SPA imports an area's own object, never this one,
 * so a page carries only its area's validators.
 */
export const ENDPOINTS: Readonly<Record<string, EndpointGroup>> = {
  health: HEALTH_ENDPOINTS,
  courses: COURSE_ENDPOINTS,
};

/** Every list, whether or not an area's object names it yet. */
export { LISTS };
