import { NotFound } from '../errors';
import type { AppContext } from './context';

import { MAX_ID } from '../../contract/input';

export { MAX_ID };

/** A route's numeric id (`/:id`), or null for anything that cannot be one. */
function idParam(c: AppContext, name = 'id'): number | null {
  const raw = c.req.param(name) ?? '';
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

/** The route's id, or the area's 404: what cannot be an id names nothing. */
export function idOf(c: AppContext, notFound: string, name = 'id'): number {
  const id = idParam(c, name);
  if (id === null) throw new NotFound(notFound);
  return id;
}
