import { and, asc, desc, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import {
  CANDIDATE_OUTCOME_MESSAGES as O,
  CANDIDATE_RULE_MESSAGES as R,
  CANDIDATES_REGISTERED_KIND,
  type RegStatus,
} from '../../contract/candidates';
import { DIET_MESSAGES } from '../../contract/diets';
import { sanctionBlocksMessage } from '../../contract/offenders';
import {
  BULK_REFUSAL_LABELS,
  BULK_REGISTRATION_LIMIT,
  BULK_REGISTRATION_MESSAGES as B,
  type BulkRefusal,
  type BulkRegistrationResult,
  type BulkRegistrationRow,
} from '../../contract/registration';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { candidates, courseHeaders, notifications, registrations, trainingSchools } from '../db/schema';
import { currentDiet, decideWindow, extensionOf, windowRefusal } from '../diets/window';
import { NotFound, Refused, type DomainError } from '../errors';
import { activeSanction } from '../sanctions';
import type { ListScope } from './list';

/**
 * Registration for the current diet, one candidate (the row toggle) or many (issue 22: ticked rows, or
 * every verified candidate), through ONE function, changeRegistrations: the same locks, the same rules in
 * the same order, the same audit entry a candidate, the same notification of the board.
 */

/** Registrations of one school within this long, still unread, are told to the board as one notification. */
const GROUP_WINDOW = sql`interval '1 hour'`;

/**
 * Tells the board that a school admin registered `count` candidates: the school's unread notification of
 * this kind from the last hour counts them too, or a new one starts. The school's row is locked first, so
 * two registrations at once cannot both start a notification.
 */
async function notifyRegistration(
  tx: Database,
  actor: Actor,
  school: { id: number; code: string; name: string },
  count: number,
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
  const total = (Number.isInteger(counted) && counted > 0 ? counted : 0) + count;
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
      createdBy: actor.userId,
    });
}

/** What became of one candidate of a change. */
export type RegistrationOutcome =
  | { id: number; kind: 'changed' | 'unchanged' }
  | { id: number; kind: 'refused'; reason: BulkRefusal; error: DomainError };

/**
 * Registers candidates for the current diet, or takes registrations back (the row stays, so a diet's
 * history is kept). The rules, for each candidate, in this order:
 * - a school admin acts on their own school's candidates only (another school's is not found, as if it
 *   did not exist); an id that is not there is not found;
 * - there is a current diet, not closed (409);
 * - a school admin's school is not suspended, the course header's registration switch is open, and the
 *   school's window (the diet's, or their extension) is open (403 with the reason); a board admin may
 *   change any candidate while the diet is open for change;
 * - registering needs the board's verification of the documents and no sanction covering the diet, for
 *   everyone (403): both are the board's own rulings.
 * A refusal that holds for the whole request (no diet, a closed diet, a suspended school, a closed
 * window) is thrown; one of a candidate's own (not found, not verified, sanctioned, course header closed)
 * is that candidate's outcome, and the others go on. Setting the status a candidate already has changes
 * nothing and writes nothing.
 *
 * The candidates are locked in one statement in id order, so two changes of the same candidates queue
 * (the second sees the first's registrations and changes nothing) and two changes of overlapping sets
 * cannot deadlock; then the diet is read under a shared lock, so closing it waits for this change.
 * `now` is the server's clock.
 */
async function changeRegistrations(
  tx: Database,
  actor: Actor,
  scope: ListScope,
  ids: readonly number[],
  regStatus: RegStatus,
  now: Date,
): Promise<{ diet: string | null; outcomes: RegistrationOutcome[] }> {
  const bySchool = scope.kind === 'school';
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const locked = wanted.length
    ? await tx
        .select({
          id: candidates.id,
          schoolId: trainingSchools.id,
          code: trainingSchools.code,
          name: trainingSchools.name,
          status: trainingSchools.status,
          registrationStatus: courseHeaders.registrationStatus,
          verified: candidates.verified,
        })
        .from(candidates)
        .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
        .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
        .where(inArray(candidates.id, wanted))
        .orderBy(asc(candidates.id))
        .for('no key update', { of: candidates })
    : [];
  const factsOf = new Map(locked.map((row) => [row.id, row]));

  const notFound = (id: number): RegistrationOutcome => ({
    id,
    kind: 'refused',
    reason: 'not_found',
    error: new NotFound(O.notFound),
  });
  const visible = wanted.filter((id) => {
    const facts = factsOf.get(id);
    return facts && (!bySchool || facts.schoolId === scope.schoolId);
  });
  if (!visible.length) return { diet: null, outcomes: wanted.map(notFound) };

  // Shared: closing the diet or moving its window waits for this change, and this one for them.
  const diet = await currentDiet(tx, { forShare: true });
  const schoolId = bySchool ? scope.schoolId : null;
  const extension = diet && schoolId !== null ? await extensionOf(tx, diet.id, schoolId) : null;
  const window = decideWindow(diet, extension, now);
  if (!diet || diet.closedAt) throw new Refused(409, windowRefusal(diet, window, bySchool)!);
  const refusal = windowRefusal(diet, window, bySchool);

  const before = new Map(
    (
      await tx
        .select({ candidateId: registrations.candidateId, regStatus: registrations.regStatus })
        .from(registrations)
        .where(and(eq(registrations.dietId, diet.id), inArray(registrations.candidateId, visible)))
    ).map((row) => [row.candidateId, row.regStatus]),
  );

  const outcomes: RegistrationOutcome[] = [];
  const registeredBySchool = new Map<number, { id: number; code: string; name: string; count: number }>();
  for (const id of wanted) {
    const facts = factsOf.get(id);
    if (!facts || (bySchool && facts.schoolId !== scope.schoolId)) {
      outcomes.push(notFound(id));
      continue;
    }
    // The whole request's refusals: every candidate of a school admin is of their one school.
    if (bySchool && facts.status === 'suspended') throw new Refused(403, R.registrationSchoolSuspended);
    if (bySchool && facts.registrationStatus !== 'open') {
      outcomes.push({
        id,
        kind: 'refused',
        reason: 'course_header_closed',
        error: new Refused(403, R.registrationClosed),
      });
      continue;
    }
    if (refusal) throw new Refused(403, refusal);
    if (regStatus === 'registered') {
      if (!facts.verified) {
        outcomes.push({
          id,
          kind: 'refused',
          reason: 'not_verified',
          error: new Refused(403, DIET_MESSAGES.notVerified),
        });
        continue;
      }
      const sanction = await activeSanction(tx, id, diet.id);
      if (sanction) {
        outcomes.push({
          id,
          kind: 'refused',
          reason: 'sanctioned',
          error: new Refused(403, sanctionBlocksMessage(sanction, 'registered')),
        });
        continue;
      }
    }

    const previous = before.get(id) ?? 'unregistered';
    if (previous === regStatus) {
      outcomes.push({ id, kind: 'unchanged' });
      continue;
    }
    await tx
      .insert(registrations)
      .values({ dietId: diet.id, candidateId: id, regStatus, changedBy: userOf(actor) })
      .onConflictDoUpdate({
        target: [registrations.dietId, registrations.candidateId],
        set: { regStatus, changedBy: userOf(actor), updatedAt: sql`now()` },
      });
    await audit(tx, actor, {
      action: 'candidate.reg_status_changed',
      entityId: id,
      before: { diet: diet.code, reg_status: previous },
      after: { diet: diet.code, reg_status: regStatus },
    });
    outcomes.push({ id, kind: 'changed' });
    if (bySchool && regStatus === 'registered') {
      const school = registeredBySchool.get(facts.schoolId) ?? {
        id: facts.schoolId,
        code: facts.code,
        name: facts.name,
        count: 0,
      };
      school.count += 1;
      registeredBySchool.set(facts.schoolId, school);
    }
  }
  // Told once a request, after every candidate is locked (the school's row is locked last, always).
  for (const school of registeredBySchool.values()) {
    await notifyRegistration(tx, actor, school, school.count);
  }
  return { diet: diet.code, outcomes };
}

/** One row's toggle: changeRegistrations for one candidate, its refusal thrown as the route's answer. */
export async function setRegStatus(
  tx: Database,
  actor: Actor,
  scope: ListScope,
  id: number,
  regStatus: RegStatus,
  now: Date,
) {
  const { outcomes } = await changeRegistrations(tx, actor, scope, [id], regStatus, now);
  const [outcome] = outcomes;
  if (outcome.kind === 'refused') throw outcome.error;
}

/** What a bulk registration asks: ticked ids, or every verified candidate (narrowed as the list is). */
export type BulkRegistrationAsk =
  | { kind: 'ids'; ids: number[] }
  | { kind: 'allVerified'; diet: string; courseHeader?: string; year?: number };

/**
 * The verified candidates of the scope not registered for the current diet (of a course header and a
 * year when asked), the first BULK_REGISTRATION_LIMIT by id, and how many more there are.
 */
async function verifiedUnregistered(
  tx: Database,
  scope: ListScope,
  dietId: number,
  ask: Extract<BulkRegistrationAsk, { kind: 'allVerified' }>,
): Promise<{ ids: number[]; leftOver: number }> {
  if (scope.kind === 'school' && scope.schoolId === null) return { ids: [], leftOver: 0 };
  const conditions = [
    eq(candidates.verified, true),
    scope.kind === 'school' && scope.schoolId !== null
      ? eq(candidates.trainingSchoolId, scope.schoolId)
      : undefined,
    ask.courseHeader
      ? eq(
          candidates.courseHeaderId,
          sql`(select ${courseHeaders.id} from ${courseHeaders} where ${courseHeaders.code} = ${ask.courseHeader})`,
        )
      : undefined,
    ask.year === undefined ? undefined : eq(candidates.year, ask.year),
    notExists(
      tx
        .select({ one: sql`1` })
        .from(registrations)
        .where(
          and(
            eq(registrations.candidateId, candidates.id),
            eq(registrations.dietId, dietId),
            eq(registrations.regStatus, 'registered'),
          ),
        ),
    ),
  ];
  const rows = await tx
    .select({ id: candidates.id })
    .from(candidates)
    .where(and(...conditions))
    .orderBy(asc(candidates.id))
    .limit(BULK_REGISTRATION_LIMIT + 1);
  if (rows.length <= BULK_REGISTRATION_LIMIT) return { ids: rows.map((row) => row.id), leftOver: 0 };
  // How many more, counted only when the limit is passed.
  const ids = rows.slice(0, BULK_REGISTRATION_LIMIT).map((row) => row.id);
  const [{ count }] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(candidates)
    .where(and(...conditions, gt(candidates.id, ids[ids.length - 1])));
  return { ids, leftOver: Number(count) };
}

/**
 * Registers many candidates for the current diet through changeRegistrations, and counts what became of
 * each: registered, already registered, refused (with the reason). `all_verified` names the diet the page
 * shows; if the current diet is another one now, nothing is done (409).
 */
export async function registerInBulk(
  tx: Database,
  actor: Actor,
  scope: ListScope,
  ask: BulkRegistrationAsk,
  now: Date,
): Promise<BulkRegistrationResult> {
  const current = await currentDiet(tx);
  if (!current) throw new Refused(409, DIET_MESSAGES.noCurrentDiet);
  let ids: number[];
  let leftOver = 0;
  if (ask.kind === 'ids') ids = ask.ids;
  else {
    if (current.code !== ask.diet) throw new Refused(409, B.dietChanged(current.code, ask.diet));
    ({ ids, leftOver } = await verifiedUnregistered(tx, scope, current.id, ask));
  }
  const { diet, outcomes } = await changeRegistrations(tx, actor, scope, ids, 'registered', now);
  // The current diet changed between the pick and the lock: nothing of this request stands.
  if (diet !== null && diet !== current.code) throw new Refused(409, B.dietChanged(diet, current.code));
  const refusedBy = new Map<BulkRefusal, number>();
  const rows: BulkRegistrationRow[] = outcomes.map((outcome) => {
    if (outcome.kind === 'refused') {
      refusedBy.set(outcome.reason, (refusedBy.get(outcome.reason) ?? 0) + 1);
      return { id: outcome.id, outcome: 'refused', reason: outcome.reason, message: outcome.error.message };
    }
    return { id: outcome.id, outcome: outcome.kind === 'changed' ? 'registered' : 'already_registered' };
  });
  return {
    diet: current.code,
    registered: rows.filter((row) => row.outcome === 'registered').length,
    already_registered: rows.filter((row) => row.outcome === 'already_registered').length,
    refused: [...refusedBy.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([reason, count]) => ({ reason, label: BULK_REFUSAL_LABELS[reason], count })),
    left_over: leftOver,
    rows,
  };
}
