import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  SCHOOL_ADMIN_MESSAGES as A,
  SCHOOL_MESSAGES,
  normaliseSchoolCode,
  type SchoolAdminSummary,
  type SchoolRow,
} from '../../contract/schools';
import {
  adminActiveValidator,
  schoolAdminValidator,
  schoolStatusValidator,
  schoolValidator,
} from '../../contract/schools.validators';
import { audit } from '../audit';
import { hashPassword, randomSecret } from '../auth/secrets';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { nationalities, trainingSchools, users } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv } from '../http/context';
import { idParam } from '../http/params';
import { invalid, ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { issueResetCode, mailResetCode, signOutEverywhere } from '../schools/accounts';
import { normaliseEmail } from '../users';

export const schoolColumns = {
  id: trainingSchools.id,
  code: trainingSchools.code,
  name: trainingSchools.name,
  state: trainingSchools.state,
  country: trainingSchools.country,
  address: trainingSchools.address,
  contact_email: trainingSchools.contactEmail,
  contact_phone: trainingSchools.contactPhone,
  status: trainingSchools.status,
};

const adminColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone_number: users.phoneNumber,
  active: users.active,
  schoolId: users.trainingSchoolId,
};

/** A school admin's account as the admin routes see it; other users (board admins) are not theirs. */
async function schoolAdmin(db: Database, id: number) {
  const [row] = await db
    .select(adminColumns)
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'school_admin')));
  return row ?? null;
}

type SchoolAdminRow = NonNullable<Awaited<ReturnType<typeof schoolAdmin>>>;

/** What the list shows of a school admin: the row without its school. */
const adminSummary = ({ schoolId: _schoolId, ...summary }: SchoolAdminRow): SchoolAdminSummary => summary;

/** A school's own fields as selected, before its admins are added. */
type SchoolColumns = Omit<SchoolRow, 'admins'>;

/** The schools' rows with their school admins (by name, deactivated ones included), in one more query. */
export async function withAdmins(db: Database, schools: SchoolColumns[]): Promise<SchoolRow[]> {
  const admins = schools.length
    ? await db
        .select(adminColumns)
        .from(users)
        .where(
          and(
            inArray(
              users.trainingSchoolId,
              schools.map((school) => school.id),
            ),
            eq(users.role, 'school_admin'),
          ),
        )
        .orderBy(asc(users.name), asc(users.id))
    : [];
  return schools.map((school) => ({
    ...school,
    admins: admins.filter((admin) => admin.schoolId === school.id).map(adminSummary),
  }));
}

async function loadSchool(db: Database, id: number): Promise<SchoolRow | null> {
  const [school] = await db.select(schoolColumns).from(trainingSchools).where(eq(trainingSchools.id, id));
  return school ? (await withAdmins(db, [school]))[0] : null;
}

/** What the audit log keeps of a school: its own fields, not its admins (they have their own entries). */
const schoolSnapshot = ({ admins: _admins, ...school }: SchoolRow) => school;

/** The school form's values as columns, with the checks the validator cannot make (one 422 for all). */
async function readSchoolForm(c: AppContext, exceptId: number | null) {
  const input = await readBody(c, schoolValidator);
  if (input instanceof Response) return input;
  const db = c.get('deps').database.db;
  const code = normaliseSchoolCode(input.code);
  const country = input.country.toUpperCase();
  const fields: Record<string, string[]> = {};
  const [taken] = await db
    .select({ id: trainingSchools.id })
    .from(trainingSchools)
    .where(
      exceptId
        ? and(eq(trainingSchools.code, code), ne(trainingSchools.id, exceptId))
        : eq(trainingSchools.code, code),
    );
  if (taken) fields.code = [SCHOOL_MESSAGES.codeTaken];
  const [known] = await db
    .select({ code: nationalities.code })
    .from(nationalities)
    .where(eq(nationalities.code, country));
  if (!known) fields.country = [SCHOOL_MESSAGES.countryInvalid];
  if (Object.keys(fields).length) return invalid(c, fields);
  return {
    code,
    name: input.name,
    state: input.state,
    country,
    address: input.address ?? '',
    contactEmail: input.contact_email ? normaliseEmail(input.contact_email) : null,
    contactPhone: input.contact_phone ?? null,
  };
}

const codeTaken = (c: AppContext) => invalid(c, { code: [SCHOOL_MESSAGES.codeTaken] });
const noSchool = (c: AppContext) => refuse(c, 404, SCHOOL_MESSAGES.notFound);
const noAdmin = (c: AppContext) => refuse(c, 404, A.notFound);

/**
 * The training schools and their admin accounts, for the board (the list: server/lists/sources.ts).
 * Every change is audited with its before and after.
 */
export const schoolRoutes = new Hono<AppEnv>()
  .post('/training-schools', async (c) => {
    const values = await readSchoolForm(c, null);
    if (values instanceof Response) return values;
    const db = c.get('deps').database.db;
    try {
      const created = await db.transaction(async (tx) => {
        const [row] = await tx.insert(trainingSchools).values(values).returning({ id: trainingSchools.id });
        const after = (await loadSchool(tx, row.id))!;
        await audit(tx, auditActor(c), {
          action: 'school.created',
          entity: 'training_school',
          entityId: row.id,
          after: schoolSnapshot(after),
        });
        return after;
      });
      return ok(c, created, SCHOOL_MESSAGES.created);
    } catch (error) {
      // Two schools given one code at the same moment: the unique index settles it.
      if (isUniqueViolation(error, 'training_schools_code_key')) return codeTaken(c);
      throw error;
    }
  })

  .post('/training-schools/:id', async (c) => {
    const id = idParam(c);
    const db = c.get('deps').database.db;
    const before = id ? await loadSchool(db, id) : null;
    if (!id || !before) return noSchool(c);
    const values = await readSchoolForm(c, id);
    if (values instanceof Response) return values;
    let updated: SchoolRow;
    try {
      updated = await db.transaction(async (tx) => {
        await tx
          .update(trainingSchools)
          .set({ ...values, updatedAt: sql`now()` })
          .where(eq(trainingSchools.id, id));
        const after = (await loadSchool(tx, id))!;
        await audit(tx, auditActor(c), {
          action: 'school.updated',
          entity: 'training_school',
          entityId: id,
          before: schoolSnapshot(before),
          after: schoolSnapshot(after),
        });
        return after;
      });
    } catch (error) {
      if (isUniqueViolation(error, 'training_schools_code_key')) return codeTaken(c);
      throw error;
    }
    return ok(c, updated, SCHOOL_MESSAGES.updated);
  })

  .post('/training-schools/:id/status', async (c) => {
    const input = await readBody(c, schoolStatusValidator);
    if (input instanceof Response) return input;
    const id = idParam(c);
    if (!id) return noSchool(c);
    const db = c.get('deps').database.db;
    const found = await db.transaction(async (tx) => {
      const [row] = await tx
        .select({ status: trainingSchools.status })
        .from(trainingSchools)
        .where(eq(trainingSchools.id, id))
        .for('update');
      if (!row) return false;
      // Setting the status it already has changes nothing, so it is not an event for the log.
      if (row.status === input.status) return true;
      await tx
        .update(trainingSchools)
        .set({ status: input.status, updatedAt: sql`now()` })
        .where(eq(trainingSchools.id, id));
      await audit(tx, auditActor(c), {
        action: 'school.status_changed',
        entity: 'training_school',
        entityId: id,
        before: { status: row.status },
        after: { status: input.status },
      });
      return true;
    });
    if (!found) return noSchool(c);
    return ok(
      c,
      await loadSchool(db, id),
      input.status === 'active' ? SCHOOL_MESSAGES.activated : SCHOOL_MESSAGES.suspended,
    );
  })

  .post('/training-schools/:id/admins', async (c) => {
    const id = idParam(c);
    const db = c.get('deps').database.db;
    const [school] = id
      ? await db.select({ id: trainingSchools.id }).from(trainingSchools).where(eq(trainingSchools.id, id))
      : [];
    if (!id || !school) return noSchool(c);
    const input = await readBody(c, schoolAdminValidator);
    if (input instanceof Response) return input;
    const email = normaliseEmail(input.email);
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (taken) return invalid(c, { email: [A.emailTaken] });

    const caller = callerOf(c);
    // Nobody ever knows this password: the new admin sets their own with the mailed code.
    const passwordHash = await hashPassword(randomSecret(32));
    let created: { admin: SchoolAdminRow; code: string };
    try {
      created = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            name: input.name,
            email,
            phoneNumber: input.phone_number ?? null,
            role: 'school_admin',
            trainingSchoolId: id,
            passwordHash,
          })
          .returning(adminColumns);
        const { code } = await issueResetCode(tx, row.id, caller.userId);
        await audit(tx, auditActor(c), {
          action: 'user.created',
          entity: 'user',
          entityId: row.id,
          after: {
            name: input.name,
            email,
            phone_number: input.phone_number ?? null,
            role: 'school_admin',
            training_school_id: id,
            active: true,
            reset_code_sent: true,
          },
        });
        return { admin: row, code };
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_key')) return invalid(c, { email: [A.emailTaken] });
      throw error;
    }
    await mailResetCode(c, email, created.code, true);
    return ok(c, adminSummary(created.admin), A.created);
  })

  .post('/school-admins/:id/active', async (c) => {
    const input = await readBody(c, adminActiveValidator);
    if (input instanceof Response) return input;
    const id = idParam(c);
    if (!id) return noAdmin(c);
    const db = c.get('deps').database.db;
    const admin = await db.transaction(async (tx) => {
      const [row] = await tx
        .select(adminColumns)
        .from(users)
        .where(and(eq(users.id, id), eq(users.role, 'school_admin')))
        .for('update');
      if (!row) return null;
      if (row.active === input.active) return row;
      const [updated] = await tx
        .update(users)
        .set({ active: input.active, updatedAt: sql`now()` })
        .where(eq(users.id, id))
        .returning(adminColumns);
      // A deactivated account is signed out at once, not when its tokens expire.
      const revoked = input.active ? [] : await signOutEverywhere(tx, id);
      await audit(tx, auditActor(c), {
        action: input.active ? 'user.reactivated' : 'user.deactivated',
        entity: 'user',
        entityId: id,
        before: { active: row.active },
        after: { active: input.active, ...(input.active ? {} : { revoked_tokens: revoked }) },
      });
      return updated;
    });
    if (!admin) return noAdmin(c);
    return ok(c, adminSummary(admin), input.active ? A.reactivated : A.deactivated);
  })

  .post('/school-admins/:id/password-reset', async (c) => {
    const id = idParam(c);
    const db = c.get('deps').database.db;
    const admin = id ? await schoolAdmin(db, id) : null;
    if (!id || !admin) return noAdmin(c);
    if (!admin.active) return refuse(c, 409, A.resetInactive);
    const caller = callerOf(c);
    const code = await db.transaction(async (tx) => {
      const issued = await issueResetCode(tx, id, caller.userId);
      await audit(tx, auditActor(c), {
        action: 'user.password_reset_sent',
        entity: 'user',
        entityId: id,
        after: { reset_id: issued.resetId, email: admin.email },
      });
      return issued.code;
    });
    await mailResetCode(c, admin.email, code, false);
    return ok(c, undefined, A.resetSent);
  });
