import { eq, sql } from 'drizzle-orm';
import { DIET_MESSAGES } from '../../contract/diets';
import type { Database } from '../db/client';
import { diets } from '../db/schema';
import { Invalid } from '../errors';

/**
 * A diet named by its code, as forms, filters and queries name diets ('2026A', 'MAY-2027'): the one place
 * a code is read (trimmed, in capitals, as codes are stored) and turned into a diet, and the one sentence
 * for a code that names none. A leaf: areas import it without reaching the diets' services.
 */

/** What a form's `diet` field is refused with when its code names no diet (a fresh object each time). */
export const unknownDiet = () => ({ diet: [DIET_MESSAGES.dietUnknown] });

/** The condition a query that joins `diets` puts on a code (a list's or a page's `diet` filter). */
export const dietCodeIs = (code: string) => eq(diets.code, code.trim().toUpperCase());

/** The id of the diet a code names, as a subquery (null when none), for a query that does not join diets. */
export const dietIdOf = (code: string) => sql`(select ${diets.id} from ${diets} where ${dietCodeIs(code)})`;

/** The diet a code names; null when there is none (for a form that gathers its fields' refusals). */
export async function dietByCode(db: Database, code: string) {
  const [row] = await db.select().from(diets).where(dietCodeIs(code));
  return row ?? null;
}

/** The diet a form's `diet` field names, or the field's refusal (422). */
export async function namedDiet(db: Database, code: string) {
  const diet = await dietByCode(db, code);
  if (!diet) throw new Invalid(unknownDiet());
  return diet;
}
