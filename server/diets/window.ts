import { and, eq } from 'drizzle-orm';
import {
  DIET_MESSAGES as M,
  dietClosedMessage,
  windowClosedMessage,
  windowNotYetOpenMessage,
  type RegistrationWindow,
} from '../../contract/diets';
import type { Database } from '../db/client';
import { dietExtensions, diets } from '../db/schema';

/**
 * Whether registration is open, decided here and only here, by the server's clock: the window is
 * [opens_at, closes_at), or for a school with an extension [opens_at, until). The browser only shows
 * what this answers (contract RegistrationWindow).
 */

export type CurrentDiet = typeof diets.$inferSelect;

/** The diet current for registration, if any (locked for a change when `forShare`). */
export async function currentDiet(db: Database, { forShare = false } = {}): Promise<CurrentDiet | null> {
  const query = db.select().from(diets).where(eq(diets.current, true));
  const [row] = forShare ? await query.for('share') : await query;
  return row ?? null;
}

export async function extensionOf(db: Database, dietId: number, schoolId: number) {
  const [row] = await db
    .select({ until: dietExtensions.until, reason: dietExtensions.reason })
    .from(dietExtensions)
    .where(and(eq(dietExtensions.dietId, dietId), eq(dietExtensions.trainingSchoolId, schoolId)));
  return row ?? null;
}

/** The window of `diet` for one school (null: the board's view, no extension) at `now`. */
export function decideWindow(
  diet: CurrentDiet | null,
  extension: { until: Date; reason: string } | null,
  now: Date,
): RegistrationWindow {
  const serverNow = now.toISOString();
  if (!diet) {
    return {
      diet: null,
      opens_at: null,
      closes_at: null,
      extension: null,
      open: false,
      next_change_at: null,
      server_now: serverNow,
    };
  }
  const opens = diet.registrationOpensAt;
  // An extension counts only when it runs past the diet's own close (the form insists it does).
  const closes =
    extension && extension.until > diet.registrationClosesAt ? extension.until : diet.registrationClosesAt;
  const closed = diet.closedAt !== null;
  const open = !closed && now >= opens && now < closes;
  return {
    diet: { code: diet.code, name: diet.name },
    opens_at: opens.toISOString(),
    closes_at: diet.registrationClosesAt.toISOString(),
    extension: extension ? { until: extension.until.toISOString(), reason: extension.reason } : null,
    open,
    next_change_at: closed ? null : open ? closes.toISOString() : now < opens ? opens.toISOString() : null,
    server_now: serverNow,
  };
}

/** The current diet's window as it applies to a school (null: as it applies to the board). */
export async function windowFor(db: Database, schoolId: number | null, now: Date) {
  const diet = await currentDiet(db);
  const extension = diet && schoolId !== null ? await extensionOf(db, diet.id, schoolId) : null;
  return { diet, window: decideWindow(diet, extension, now) };
}

/**
 * Why a school admin may not register for the current diet now, or null when they may. The board's
 * admins are held only to there being a current diet that is not closed.
 */
export function windowRefusal(
  diet: CurrentDiet | null,
  window: RegistrationWindow,
  bySchool: boolean,
): string | null {
  if (!diet) return M.noCurrentDiet;
  if (diet.closedAt) return dietClosedMessage(diet.name);
  if (!bySchool || window.open) return null;
  if (window.opens_at && window.server_now < window.opens_at) {
    return windowNotYetOpenMessage(diet.name, window.opens_at);
  }
  // The later of the diet's close and the school's extension (a diet moved later may pass an extension).
  const extended =
    window.extension && window.extension.until > window.closes_at! ? window.extension.until : null;
  return windowClosedMessage(diet.name, extended ?? window.closes_at!);
}
