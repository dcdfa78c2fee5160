import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { User } from '../contract/user';
import { isRole } from '../contract/roles';
import type { Database } from './db/client';
import { trainingSchools, users } from './db/schema';

/** The profile of a user as the API shows it (contract User): never the hash, never internal flags.
 * `impersonatorId` is the admin signed in as this user on the calling token, if any. */
export async function findUserView(
  db: Database,
  userId: number,
  impersonatorId: number | null = null,
): Promise<User | null> {
  const [row] = await db
    .select({ user: users, school: trainingSchools })
    .from(users)
    .leftJoin(trainingSchools, eq(trainingSchools.id, users.trainingSchoolId))
    .where(eq(users.id, userId));
  if (!row || !isRole(row.user.role)) return null;
  const { user, school } = row;
  const [impersonator] = impersonatorId
    ? await db
        .select({ id: users.id, name: users.name, email: users.email })
        .from(users)
        .where(eq(users.id, impersonatorId))
    : [];
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    phone_number: user.phoneNumber,
    photo: user.photo,
    gender: user.gender === 'female' || user.gender === 'male' ? user.gender : null,
    user_role: user.role as User['user_role'],
    operator_id: user.operatorId,
    training_school: school
      ? { id: school.id, code: school.code, name: school.name, status: school.status }
      : null,
    impersonator: impersonator ?? null,
  };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A board admin who can work: not suspended, and not still waiting to set a password through their
 * invitation (issue 26). Markers are chosen from these (server/scores/sheets.ts), and the last of them
 * cannot be suspended (server/staff/service.ts).
 */
export const activeBoardAdmin = () =>
  and(
    eq(users.role, 'admin'),
    eq(users.active, true),
    or(isNull(users.invitedAt), isNotNull(users.joinedAt)),
  );
