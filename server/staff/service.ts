import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { inviteStaffValidator, staffSuspensionValidator } from '../../contract/staff.validators';
import {
  INVITATION_SENDS_PER_DAY,
  STAFF_MESSAGES as M,
  type MarkedSheet,
  type StaffMember,
  type StaffStatus,
} from '../../contract/staff';
import { audit, changeAudited, userOf, type Actor } from '../audit';
import { takeHit } from '../auth/throttle';
import type { Database } from '../db/client';
import { duplicateAs } from '../db/errors';
import {
  accessTokens,
  courseHeaders,
  diets,
  papers,
  scoreSheets,
  staffInvitations,
  users,
} from '../db/schema';
import { Invalid, NotFound, Refused } from '../errors';
import { signOutEverywhere } from '../schools/accounts';
import { hashPassword, randomSecret } from '../secrets';
import { normaliseEmail } from '../users';
import { forgetCallers } from '../auth/callerCache';

type InviteInput = Awaited<ReturnType<typeof inviteStaffValidator.validate>>;
type SuspensionInput = Awaited<ReturnType<typeof staffSuspensionValidator.validate>>;

/**
 * The board's own staff (issue 26): the board admins, their invitations and suspensions. Every change
 * takes the caller's transaction and actor, and is audited in it.
 */

/** A board admin's status, from the row: suspended, still invited, or active. */
const statusSql = sql<StaffStatus>`case
  when not ${users.active} then 'suspended'
  when ${users.invitedAt} is not null and ${users.joinedAt} is null then 'invited'
  else 'active' end`;

/** Their last completed sign-in: the newest token issued to them that is not an impersonation. */
const lastSignInSql = sql<string | Date | null>`(select max(t.created_at) from ${accessTokens} t
  where t.user_id = "users"."id" and t.impersonator_id is null)`;

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/** The board admins (one of them, with `only`), each with the sheets they mark. */
async function loadStaff(db: Database, callerId: number, only?: number): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      status: statusSql,
      invitedAt: users.invitedAt,
      lastSignIn: lastSignInSql,
    })
    .from(users)
    .where(only === undefined ? eq(users.role, 'admin') : and(eq(users.role, 'admin'), eq(users.id, only)))
    .orderBy(asc(users.name), asc(users.id));
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const sheets = await db
    .select({
      id: scoreSheets.id,
      one: scoreSheets.markerOneId,
      two: scoreSheets.markerTwoId,
      three: scoreSheets.markerThreeId,
      state: scoreSheets.state,
      diet: diets.code,
      courseHeader: courseHeaders.code,
      paper: papers.name,
    })
    .from(scoreSheets)
    .innerJoin(diets, eq(diets.id, scoreSheets.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, scoreSheets.courseHeaderId))
    .leftJoin(papers, eq(papers.id, scoreSheets.paperId))
    .where(
      or(
        inArray(scoreSheets.markerOneId, ids),
        inArray(scoreSheets.markerTwoId, ids),
        inArray(scoreSheets.markerThreeId, ids),
      ),
    )
    .orderBy(asc(diets.code), asc(courseHeaders.code), asc(scoreSheets.id));
  const marked = new Map<number, MarkedSheet[]>();
  for (const sheet of sheets) {
    const markers = [sheet.one, sheet.two, sheet.three] as const;
    markers.forEach((markerId, index) => {
      if (markerId === null) return;
      const list = marked.get(markerId) ?? [];
      list.push({
        id: sheet.id,
        marker: (index + 1) as MarkedSheet['marker'],
        diet: sheet.diet,
        course_header: sheet.courseHeader,
        paper: sheet.paper,
        state: sheet.state,
      });
      marked.set(markerId, list);
    });
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    invited_at: iso(row.invitedAt),
    last_signed_in_at: iso(row.lastSignIn),
    is_you: row.id === callerId,
    sheets: marked.get(row.id) ?? [],
  }));
}

export const listStaff = (db: Database, actor: Actor) => loadStaff(db, userOf(actor));

async function oneMember(db: Database, actor: Actor, id: number): Promise<StaffMember> {
  const [member] = await loadStaff(db, userOf(actor), id);
  if (!member) throw new NotFound(M.notFound);
  return member;
}

/** The limit on invitation mails to one person: checked and recorded in one statement (takeHit). */
async function takeInvitationSend(db: Database, userId: number): Promise<boolean> {
  const taken = await takeHit(db, [
    { bucket: `staff-invitation:${userId}`, max: INVITATION_SENDS_PER_DAY, windowMinutes: 24 * 60 },
  ]);
  return taken !== null;
}

/** An invitation mail waiting in the outbox (mailed by the job 'staff-invitation'). */
async function queueInvitation(db: Database, userId: number, invitedBy: number): Promise<number> {
  const [row] = await db
    .insert(staffInvitations)
    .values({ userId, invitedBy })
    .returning({ id: staffInvitations.id });
  return row.id;
}

/**
 * A new board admin, invited: their account has a password nobody knows until they set theirs through
 * the mailed link (the reset path). The mail waits in the outbox; the caller wakes the job after the
 * commit.
 */
export async function inviteStaff(tx: Database, actor: Actor, input: InviteInput) {
  const email = normaliseEmail(input.email);
  const emailTaken = { email: [M.emailTaken] };
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw new Invalid(emailTaken);
  const passwordHash = await hashPassword(randomSecret(32));
  const [row] = await tx
    .insert(users)
    .values({ name: input.name, email, role: 'admin', passwordHash, invitedAt: sql`now()` })
    .returning({ id: users.id })
    .catch(duplicateAs('users_email_key', emailTaken));
  // A new account has sent nothing yet: the first mail is counted, and always allowed.
  await takeInvitationSend(tx, row.id);
  const invitationId = await queueInvitation(tx, row.id, userOf(actor));
  await audit(tx, actor, {
    action: 'staff.invited',
    entityId: row.id,
    after: { name: input.name, email, role: 'admin', status: 'invited', invitation_id: invitationId },
  });
  return oneMember(tx, actor, row.id);
}

/** The invitation mailed again, to a board admin still invited and not suspended (a few times a day). */
export async function resendInvitation(tx: Database, actor: Actor, id: number): Promise<void> {
  const [member] = await tx
    .select({ status: statusSql })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'admin')));
  if (!member) throw new NotFound(M.notFound);
  if (member.status === 'suspended') throw new Refused(409, M.invitationSuspended);
  if (member.status !== 'invited') throw new Refused(409, M.notInvited);
  if (!(await takeInvitationSend(tx, id))) throw new Refused(429, M.tooManyInvitations);
  const invitationId = await queueInvitation(tx, id, userOf(actor));
  await audit(tx, actor, {
    action: 'staff.invitation_resent',
    entityId: id,
    after: { invitation_id: invitationId },
  });
}

/** Key of the advisory lock every suspension takes: they run one after another. */
const SUSPENSION_LOCK = sql`hashtext('board-staff-suspension')`;

/**
 * Suspends a board admin, or reinstates one. A suspension is one statement that checks and writes:
 * the target is a board admin, active, not the caller, the caller is still active, and another active
 * board admin (not merely invited) remains. Every suspension first takes one advisory lock, so the
 * statement (whose snapshot is taken after the lock) sees every suspension committed before it: a
 * hundred at once, each admin suspending another, leave one active admin, never none. Suspending ends
 * the admin's tokens (and the impersonations they hold) at once; a token is also refused for an
 * inactive user on every request (server/auth/tokens.ts).
 */
export async function setSuspended(tx: Database, actor: Actor, id: number, { suspended }: SuspensionInput) {
  const me = userOf(actor);
  if (!suspended) return reinstate(tx, actor, id);
  await tx.execute(sql`select pg_advisory_xact_lock(${SUSPENSION_LOCK})`);
  const { rows } = (await tx.execute(sql`
    update ${users} set active = false, updated_at = now()
    where id = ${id} and role = 'admin' and active and id <> ${me}
      and exists (select 1 from ${users} caller where caller.id = ${me} and caller.role = 'admin' and caller.active)
      and exists (
        select 1 from ${users} other
        where other.role = 'admin' and other.active and other.id <> ${id}
          and (other.invited_at is null or other.joined_at is not null))
    returning id`)) as unknown as { rows: { id: number }[] };
  if (rows.length === 0) {
    const [target] = await tx
      .select({ active: users.active })
      .from(users)
      .where(and(eq(users.id, id), eq(users.role, 'admin')));
    if (!target) throw new NotFound(M.notFound);
    if (id === me) throw new Refused(409, M.notSelf);
    // Already suspended: the same answer, and nothing new for the log.
    if (!target.active) return oneMember(tx, actor, id);
    throw new Refused(409, M.lastAdmin);
  }
  const revoked = await signOutEverywhere(tx, id);
  // The impersonations they hold end too: those tokens are the school admin's, held by this admin.
  forgetCallers();
  const impersonations = await tx
    .update(accessTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accessTokens.impersonatorId, id), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  await audit(tx, actor, {
    action: 'staff.suspended',
    entityId: id,
    before: { active: true },
    after: { active: false, revoked_tokens: [...revoked, ...impersonations.map((t) => t.id)] },
  });
  return oneMember(tx, actor, id);
}

async function reinstate(tx: Database, actor: Actor, id: number) {
  // Audited only when it changes something: an active admin reinstated again is left as they are.
  await changeAudited(tx, actor, {
    table: users,
    id,
    where: eq(users.role, 'admin'),
    notFound: M.notFound,
    action: 'staff.reinstated',
    snapshot: (row) => ({ active: row.active }),
    set: () => ({ active: true }),
  });
  return oneMember(tx, actor, id);
}

/**
 * An invited board admin who has just set their password through the reset path: they have joined
 * (their status becomes active). Called by server/auth/passwordReset.ts in its transaction; nothing for
 * anyone else.
 */
export async function markJoined(tx: Database, actor: Actor, userId: number): Promise<void> {
  const joined = await tx
    .update(users)
    .set({ joinedAt: sql`now()` })
    .where(
      and(
        eq(users.id, userId),
        eq(users.role, 'admin'),
        sql`${users.invitedAt} is not null`,
        isNull(users.joinedAt),
      ),
    )
    .returning({ id: users.id });
  if (joined.length > 0) {
    await audit(
      tx,
      { ...actor, userId },
      { action: 'staff.joined', entityId: userId, after: { status: 'active' } },
    );
  }
}
