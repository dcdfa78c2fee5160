import { asc } from 'drizzle-orm';
import type { Nationality } from '../../contract/nationalities';
import { REFERENCE_ENDPOINTS as E } from '../../contract/reference.endpoints';
import { ROLES } from '../../contract/roles';
import { nationalities } from '../db/schema';
import { dbOf } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';

/** Reference lists both roles need, each under its own prefix (spec section 7). */
export const referenceRoutes: Route[] = ROLES.map((role) =>
  serve(E.nationalities[role], async (c) => {
    const rows: Nationality[] = await dbOf(c)
      .select({ code: nationalities.code, name: nationalities.name })
      .from(nationalities)
      .orderBy(asc(nationalities.position));
    return ok(c, rows);
  }),
);
