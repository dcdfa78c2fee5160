import { and, desc, eq, sql } from 'drizzle-orm';
import { DIET_MESSAGES as M, type DietChoice, type DietExtension, type DietRow } from '../../contract/diets';
import type { dietValidator, extensionValidator } from '../../contract/diets.validators';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import { dietExtensions, diets, registrations, schoolNotices, trainingSchools, users } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { formatDateTime } from '../../contract/format';

/**
 * Exam diets (contract/diets.ts): the board creates and edits them, makes one current for registration,
 * closes them, and extends the window for one school. Every change is audited.
 */

type DietInput = Awaited<ReturnType<typeof dietValidator.validate>>;
type ExtensionInput = Awaited<ReturnType<typeof extensionValidator.validate>>;

/** A diet's row as the board's list shows it, with its registered candidates and extensions counted. */
const dietColumns = {
  id: diets.id,
  code: diets.code,
  name: diets.name,
  firstPaperOn: diets.firstPaperOn,
  lastPaperOn: diets.lastPaperOn,
  registrationOpensAt: diets.registrationOpensAt,
  registrationClosesAt: diets.registrationClosesAt,
  current: diets.current,
  closedAt: diets.closedAt,
  // "diets"."id" spelt out: in a select from one table Drizzle writes its columns unqualified, and a bare
  // "id" inside the subquery would be the counted table's own.
  registered:
    sql<number>`(select count(*) from ${registrations} where ${registrations.dietId} = "diets"."id" and ${registrations.regStatus} = 'registered')`.mapWith(
      Number,
    ),
  extensions:
    sql<number>`(select count(*) from ${dietExtensions} where ${dietExtensions.dietId} = "diets"."id")`.mapWith(
      Number,
    ),
};

export const selectDiets = (db: Database) => db.select(dietColumns).from(diets).$dynamic();

export function toDietRow(row: Awaited<ReturnType<typeof selectDiets>>[number]): DietRow {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    first_paper_on: row.firstPaperOn,
    last_paper_on: row.lastPaperOn,
    registration_opens_at: row.registrationOpensAt.toISOString(),
    registration_closes_at: row.registrationClosesAt.toISOString(),
    current: row.current,
    closed_at: row.closedAt?.toISOString() ?? null,
    registered: row.registered,
    extensions: row.extensions,
  };
}

async function loadDiet(db: Database, id: number): Promise<DietRow> {
  const [row] = await selectDiets(db).where(eq(diets.id, id));
  if (!row) throw new NotFound(M.notFound);
  return toDietRow(row);
}

/** What the audit log keeps of a diet. */
const snapshot = (row: typeof diets.$inferSelect) => ({
  code: row.code,
  name: row.name,
  first_paper_on: row.firstPaperOn,
  last_paper_on: row.lastPaperOn,
  registration_opens_at: row.registrationOpensAt,
  registration_closes_at: row.registrationClosesAt,
  current: row.current,
  closed_at: row.closedAt,
});

const codeTaken = duplicateAs('diets_code_key', { code: [M.codeTaken] });

const columnsOf = (input: DietInput) => ({
  code: input.code,
  name: input.name,
  firstPaperOn: input.first_paper_on,
  lastPaperOn: input.last_paper_on,
  registrationOpensAt: new Date(input.registration_opens_at),
  registrationClosesAt: new Date(input.registration_closes_at),
});

export async function createDiet(tx: Database, actor: Actor, input: DietInput): Promise<DietRow> {
  const [row] = await tx.insert(diets).values(columnsOf(input)).returning().catch(codeTaken);
  await audit(tx, actor, { action: 'diet.created', entityId: row.id, after: snapshot(row) });
  return loadDiet(tx, row.id);
}

/** A closed diet is the record of what happened: it is not edited. */
const notClosed = (row: typeof diets.$inferSelect) => {
  if (row.closedAt) throw new Refused(409, M.closed);
};

export async function updateDiet(tx: Database, actor: Actor, id: number, input: DietInput): Promise<DietRow> {
  await changeAudited(tx, actor, {
    table: diets,
    id,
    notFound: M.notFound,
    action: 'diet.updated',
    snapshot,
    set: (row) => {
      notClosed(row);
      return columnsOf(input);
    },
  }).catch(codeTaken);
  return loadDiet(tx, id);
}

/** This diet becomes the one current for registration; the one before stops being current. */
export async function makeCurrent(tx: Database, actor: Actor, id: number): Promise<DietRow> {
  // One at a time: two admins making two diets current at once queue here, and the last one wins.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('diets.current'))`);
  await changeAudited(tx, actor, {
    table: diets,
    id,
    notFound: M.notFound,
    action: 'diet.made_current',
    snapshot: (row) => ({ code: row.code, current: row.current }),
    set: async (row) => {
      notClosed(row);
      if (!row.current) {
        await tx
          .update(diets)
          .set({ current: false, updatedAt: sql`now()` })
          .where(eq(diets.current, true));
      }
      return { current: true };
    },
  });
  return loadDiet(tx, id);
}

/** The diet is over: it stops being current and nothing more is registered or entered for it. */
export async function closeDiet(tx: Database, actor: Actor, id: number): Promise<DietRow> {
  await changeAudited(tx, actor, {
    table: diets,
    id,
    notFound: M.notFound,
    action: 'diet.closed',
    snapshot: (row) => ({ code: row.code, current: row.current, closed_at: row.closedAt }),
    set: (row) => {
      notClosed(row);
      return { current: false, closedAt: sql`now()`, closedBy: userOf(actor) };
    },
  });
  return loadDiet(tx, id);
}

/** Every diet, newest paper dates first, as filters and forms offer them. */
export async function dietChoices(db: Database): Promise<DietChoice[]> {
  const rows = await db
    .select({ code: diets.code, name: diets.name, current: diets.current, closedAt: diets.closedAt })
    .from(diets)
    .orderBy(desc(diets.firstPaperOn), desc(diets.id));
  return rows.map((row) => ({
    code: row.code,
    name: row.name,
    current: row.current,
    closed: !!row.closedAt,
  }));
}

export async function listExtensions(db: Database, dietId: number): Promise<DietExtension[]> {
  await loadDiet(db, dietId);
  const rows = await db
    .select({
      code: trainingSchools.code,
      name: trainingSchools.name,
      until: dietExtensions.until,
      reason: dietExtensions.reason,
      grantedBy: users.name,
      grantedAt: dietExtensions.updatedAt,
    })
    .from(dietExtensions)
    .innerJoin(trainingSchools, eq(trainingSchools.id, dietExtensions.trainingSchoolId))
    .leftJoin(users, eq(users.id, dietExtensions.grantedBy))
    .where(eq(dietExtensions.dietId, dietId))
    .orderBy(trainingSchools.name);
  return rows.map((row) => ({
    school: { code: row.code, name: row.name },
    until: row.until.toISOString(),
    reason: row.reason,
    granted_by: row.grantedBy,
    granted_at: row.grantedAt.toISOString(),
  }));
}

async function lockedDiet(tx: Database, id: number) {
  const [diet] = await tx.select().from(diets).where(eq(diets.id, id)).for('update');
  if (!diet) throw new NotFound(M.notFound);
  notClosed(diet);
  return diet;
}

/**
 * Grants one school an extension (or moves it): registration stays open for that school, and only it,
 * until `until`. Audited, and told to the school on its dashboard.
 */
export async function grantExtension(
  tx: Database,
  actor: Actor,
  dietId: number,
  input: ExtensionInput,
): Promise<DietExtension[]> {
  const diet = await lockedDiet(tx, dietId);
  const [school] = await tx
    .select({ id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name })
    .from(trainingSchools)
    .where(eq(trainingSchools.code, input.training_school));
  if (!school) throw new Invalid({ training_school: [M.schoolUnknown] });
  const until = new Date(input.until);
  if (until <= diet.registrationClosesAt) throw new Invalid({ until: [M.untilNotAfterClose] });
  const [before] = await tx
    .select({ until: dietExtensions.until, reason: dietExtensions.reason })
    .from(dietExtensions)
    .where(and(eq(dietExtensions.dietId, dietId), eq(dietExtensions.trainingSchoolId, school.id)));
  await tx
    .insert(dietExtensions)
    .values({ dietId, trainingSchoolId: school.id, until, reason: input.reason, grantedBy: userOf(actor) })
    .onConflictDoUpdate({
      target: [dietExtensions.dietId, dietExtensions.trainingSchoolId],
      set: { until, reason: input.reason, grantedBy: userOf(actor), updatedAt: sql`now()` },
    });
  await audit(tx, actor, {
    action: 'diet.extension_granted',
    entityId: dietId,
    before: before ? { school: school.code, until: before.until, reason: before.reason } : null,
    after: { school: school.code, until, reason: input.reason },
  });
  await tx.insert(schoolNotices).values({
    trainingSchoolId: school.id,
    kind: 'registration.extension',
    title: `Registration for ${diet.name} extended`,
    body: `The board has extended registration for ${diet.name} for ${school.name} until ${formatDateTime(until)} (Lagos time).`,
  });
  return listExtensions(tx, dietId);
}

export async function withdrawExtension(
  tx: Database,
  actor: Actor,
  dietId: number,
  schoolCode: string,
): Promise<DietExtension[]> {
  const diet = await lockedDiet(tx, dietId);
  const [removed] = await tx
    .delete(dietExtensions)
    .where(
      and(
        eq(dietExtensions.dietId, dietId),
        eq(
          dietExtensions.trainingSchoolId,
          sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.code} = ${schoolCode.toUpperCase()})`,
        ),
      ),
    )
    .returning();
  if (!removed) throw new NotFound(M.extensionNotFound);
  await audit(tx, actor, {
    action: 'diet.extension_withdrawn',
    entityId: dietId,
    before: { school: schoolCode.toUpperCase(), until: removed.until, reason: removed.reason },
  });
  await tx.insert(schoolNotices).values({
    trainingSchoolId: removed.trainingSchoolId,
    kind: 'registration.extension',
    title: `Extension for ${diet.name} withdrawn`,
    body: `The board has withdrawn your extension of registration for ${diet.name}.`,
  });
  return listExtensions(tx, dietId);
}
