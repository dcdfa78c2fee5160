import vine, { SimpleMessagesProvider } from '@vinejs/vine';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATES_REGISTERED_KIND,
  REG_STATUSES,
} from '../../contract/candidates';
import { sanctionBlocksMessage } from '../../contract/offenders';
import type { Role } from '../../contract/roles';
import { audit } from '../audit';
import { loadRow } from '../candidates/records';
import type { Database } from '../db/client';
import { candidates, courseHeaders, notifications, trainingSchools } from '../db/schema';
import { auditActor, callerOf, type AppContext, type AppEnv, type Caller } from '../http/context';
import { idParam } from '../http/params';
import { ok, refuse } from '../http/respond';
import { readBody } from '../http/validate';
import { activeSanction } from '../sanctions';

const regStatusValidator = vine.create(vine.object({ reg_status: vine.enum(REG_STATUSES) }));
regStatusValidator.messagesProvider = new SimpleMessagesProvider({
  'reg_status.required': R.choose,
  'reg_status.enum': R.choose,
});

/** Registrations of one school within this long, still unread, are told to the board as one notification. */
const GROUP_WINDOW = sql`interval '1 hour'`;

/**
 * Tells the board that a school admin registered a candidate: the school's unread notification of this
 * kind from the last hour counts one more, or a new one starts. The school's row is locked first, so two
 * registrations at once cannot both start a notification.
 */
async function notifyRegistration(
  tx: Database,
  caller: Caller,
  school: { id: number; code: string; name: string },
) {
  await tx
    .select({ id: trainingSchools.id })
    .from(trainingSchools)
    .where(eq(trainingSchools.id, school.id))
    .for('no key update');
  const [open] = await tx
    .select({ id: notifications.id, data: notifications.data })
    .from(notifications)
    .where(
      and(
        eq(notifications.kind, CANDIDATES_REGISTERED_KIND),
        eq(notifications.trainingSchoolId, school.id),
        isNull(notifications.readAt),
        gt(notifications.createdAt, sql`now() - ${GROUP_WINDOW}`),
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(1)
    .for('update');
  const counted = Number((open?.data as { count?: unknown } | null)?.count);
  const total = (Number.isInteger(counted) && counted > 0 ? counted : 0) + 1;
  const text = {
    title: `Candidates registered by ${school.name}`,
    body: `${school.name} (${school.code}) has registered ${total} candidate${total === 1 ? '' : 's'}.`,
    data: { count: total },
  };
  if (open) await tx.update(notifications).set(text).where(eq(notifications.id, open.id));
  else
    await tx.insert(notifications).values({
      kind: CANDIDATES_REGISTERED_KIND,
      ...text,
      trainingSchoolId: school.id,
      createdBy: caller.userId,
    });
}

type Outcome = { status: 'done' } | { status: 404 } | { status: 403; message: string };

/**
 * POST /candidates/:id/reg-status `{ reg_status }`. A board admin may change any candidate; a school
 * admin only their own school's (another school's is a 404, as if it did not exist), only while the
 * course header's registration is open and their school is not suspended (403 with the reason).
 */
async function updateRegStatus(c: AppContext, role: Role) {
  const input = await readBody(c, regStatusValidator);
  if (input instanceof Response) return input;
  const id = idParam(c);
  if (!id) return refuse(c, 404, O.notFound);
  const caller = callerOf(c);
  const db = c.get('deps').database.db;

  const outcome = await db.transaction(async (tx): Promise<Outcome> => {
    const [row] = await tx
      .select({
        regStatus: candidates.regStatus,
        schoolId: trainingSchools.id,
        schoolCode: trainingSchools.code,
        schoolName: trainingSchools.name,
        schoolStatus: trainingSchools.status,
        registrationStatus: courseHeaders.registrationStatus,
      })
      .from(candidates)
      .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(eq(candidates.id, id))
      .for('update', { of: candidates });
    const school = role === 'school_admin';
    if (!row || (school && row.schoolId !== caller.trainingSchoolId)) return { status: 404 };
    if (school && row.schoolStatus === 'suspended')
      return { status: 403, message: R.registrationSchoolSuspended };
    if (school && row.registrationStatus !== 'open') return { status: 403, message: R.registrationClosed };
    // Board admins too: the sanction is the board's own ruling, lifted by removing the offence.
    if (input.reg_status === 'registered') {
      const sanction = await activeSanction(tx, id);
      if (sanction) return { status: 403, message: sanctionBlocksMessage(sanction, 'registered') };
    }
    if (row.regStatus === input.reg_status) return { status: 'done' };

    await tx
      .update(candidates)
      .set({ regStatus: input.reg_status, updatedAt: sql`now()` })
      .where(eq(candidates.id, id));
    await audit(tx, auditActor(c), {
      action: 'candidate.reg_status_changed',
      entity: 'candidate',
      entityId: id,
      before: { reg_status: row.regStatus },
      after: { reg_status: input.reg_status },
    });
    if (school && input.reg_status === 'registered') {
      await notifyRegistration(tx, caller, { id: row.schoolId, code: row.schoolCode, name: row.schoolName });
    }
    return { status: 'done' };
  });

  if (outcome.status === 404) return refuse(c, 404, O.notFound);
  if (outcome.status === 403) return refuse(c, 403, outcome.message);
  const row = await loadRow(db, id);
  if (!row) return refuse(c, 404, O.notFound);
  return ok(c, row, input.reg_status === 'registered' ? O.registered : O.unregistered);
}

/** The board's registered-candidates list and row toggle: every school's candidates. */
export const boardRegistrationRoutes = new Hono<AppEnv>().post('/candidates/:id/reg-status', (c) =>
  updateRegStatus(c, 'admin'),
);

/** A school admin's: their own school's candidates only. */
export const schoolRegistrationRoutes = new Hono<AppEnv>().post('/candidates/:id/reg-status', (c) =>
  updateRegStatus(c, 'school_admin'),
);
