import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import {
  SCHOOL_ADMIN_MESSAGES as A,
  SCHOOL_MESSAGES,
  normaliseSchoolCode,
  type SchoolAdminSummary,
  type SchoolRow,
  type SchoolStatus,
} from '../../contract/schools';
import type {
  adminActiveValidator,
  schoolAdminValidator,
  schoolValidator,
} from '../../contract/schools.validators';
import { audit, changeAudited, type Actor } from '../audit';
import { hashPassword, randomSecret } from '../secrets';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import { nationalities, trainingSchools, users } from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { normaliseEmail } from '../users';
import { issueResetCode, signOutEverywhere } from './accounts';

/**
 * The training schools and their admin accounts, as the board changes them. Every change is audited
 * with its before and after, in the caller's transaction.
 */

type SchoolInput = Awaited<ReturnType<typeof schoolValidator.validate>>;
type SchoolAdminInput = Awaited<ReturnType<typeof schoolAdminValidator.validate>>;
type AdminActiveInput = Awaited<ReturnType<typeof adminActiveValidator.validate>>;

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

type SchoolAdminRow = { schoolId: number | null } & SchoolAdminSummary;

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

async function loadSchool(db: Database, id: number): Promise<SchoolRow> {
  const [school] = await db.select(schoolColumns).from(trainingSchools).where(eq(trainingSchools.id, id));
  if (!school) throw new NotFound(SCHOOL_MESSAGES.notFound);
  return (await withAdmins(db, [school]))[0];
}

/** What the audit log keeps of a school: its own fields, not its admins (they have their own entries). */
const schoolSnapshot = (row: typeof trainingSchools.$inferSelect): SchoolColumns => ({
  id: row.id,
  code: row.code,
  name: row.name,
  state: row.state,
  country: row.country,
  address: row.address,
  contact_email: row.contactEmail,
  contact_phone: row.contactPhone,
  status: row.status,
});

const codeTaken = duplicateAs('training_schools_code_key', { code: [SCHOOL_MESSAGES.codeTaken] });

/** The school form's values as columns, with the checks the validator cannot make (one 422 for all). */
async function schoolValues(db: Database, input: SchoolInput, exceptId: number | null) {
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
  if (Object.keys(fields).length) throw new Invalid(fields);
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

export async function createSchool(tx: Database, actor: Actor, input: SchoolInput): Promise<SchoolRow> {
  const values = await schoolValues(tx, input, null);
  // Two schools given one code at the same moment: the unique index settles it.
  const [row] = await tx.insert(trainingSchools).values(values).returning().catch(codeTaken);
  await audit(tx, actor, { action: 'school.created', entityId: row.id, after: schoolSnapshot(row) });
  return loadSchool(tx, row.id);
}

/** The whole form again; an edit that changes nothing writes no audit entry. */
export async function updateSchool(tx: Database, actor: Actor, id: number, input: SchoolInput) {
  await changeAudited(tx, actor, {
    table: trainingSchools,
    id,
    notFound: SCHOOL_MESSAGES.notFound,
    action: 'school.updated',
    snapshot: schoolSnapshot,
    set: () => schoolValues(tx, input, id),
  }).catch(codeTaken);
  return loadSchool(tx, id);
}

/** Suspends or reactivates a school; setting the status it already has is not an event for the log. */
export async function setSchoolStatus(tx: Database, actor: Actor, id: number, status: SchoolStatus) {
  await changeAudited(tx, actor, {
    table: trainingSchools,
    id,
    notFound: SCHOOL_MESSAGES.notFound,
    action: 'school.status_changed',
    snapshot: (row) => ({ status: row.status }),
    set: () => ({ status }),
  });
  return loadSchool(tx, id);
}

/**
 * A new school admin, who never has a password anyone knows: the account gets a random one and the
 * admin is mailed a reset code (answered here, for the caller to mail once the change is committed).
 */
export async function addSchoolAdmin(tx: Database, actor: Actor, schoolId: number, input: SchoolAdminInput) {
  const [school] = await tx
    .select({ id: trainingSchools.id })
    .from(trainingSchools)
    .where(eq(trainingSchools.id, schoolId));
  if (!school) throw new NotFound(SCHOOL_MESSAGES.notFound);
  const email = normaliseEmail(input.email);
  const emailTaken = { email: [A.emailTaken] };
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw new Invalid(emailTaken);

  const passwordHash = await hashPassword(randomSecret(32));
  const [row] = await tx
    .insert(users)
    .values({
      name: input.name,
      email,
      phoneNumber: input.phone_number ?? null,
      role: 'school_admin',
      trainingSchoolId: schoolId,
      passwordHash,
    })
    .returning(adminColumns)
    .catch(duplicateAs('users_email_key', emailTaken));
  const { code } = await issueResetCode(tx, row.id, actor.userId);
  await audit(tx, actor, {
    action: 'user.created',
    entityId: row.id,
    after: {
      name: input.name,
      email,
      phone_number: input.phone_number ?? null,
      role: 'school_admin',
      training_school_id: schoolId,
      active: true,
      reset_code_sent: true,
    },
  });
  return { admin: adminSummary(row), email, code };
}

/** Deactivates (signing the account out everywhere at once) or reactivates a school admin. */
export async function setAdminActive(tx: Database, actor: Actor, id: number, { active }: AdminActiveInput) {
  const { row } = await changeAudited(tx, actor, {
    table: users,
    id,
    // Only school admins are managed here: a board admin's id is as unknown as any other.
    where: eq(users.role, 'school_admin'),
    notFound: A.notFound,
    action: active ? 'user.reactivated' : 'user.deactivated',
    snapshot: (user) => ({ active: user.active }),
    set: () => ({ active }),
    then: async () => (active ? {} : { revoked_tokens: await signOutEverywhere(tx, id) }),
  });
  return adminSummary({
    id: row.id,
    name: row.name,
    email: row.email,
    phone_number: row.phoneNumber,
    active: row.active,
    schoolId: row.trainingSchoolId,
  });
}

/** A new reset code for an active school admin (answered, for the caller to mail after the commit). */
export async function sendPasswordReset(tx: Database, actor: Actor, id: number) {
  const [admin] = await tx
    .select({ email: users.email, active: users.active })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'school_admin')));
  if (!admin) throw new NotFound(A.notFound);
  if (!admin.active) throw new Refused(409, A.resetInactive);
  const issued = await issueResetCode(tx, id, actor.userId);
  await audit(tx, actor, {
    action: 'user.password_reset_sent',
    entityId: id,
    after: { reset_id: issued.resetId, email: admin.email },
  });
  return { email: admin.email, code: issued.code };
}
