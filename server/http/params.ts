import type { AppContext } from './context';

/** The largest id a serial column holds. */
export const MAX_ID = 2_147_483_647;

/** A route's numeric id (`/:id`), or null for anything that cannot be one (the caller answers 404). */
export function idParam(c: AppContext, name = 'id'): number | null {
  const raw = c.req.param(name) ?? '';
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}
