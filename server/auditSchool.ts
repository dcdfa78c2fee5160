import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AuditEntity } from '../contract/auditTrail';
import {
  accessTokens,
  candidates,
  conversations,
  documentPrints,
  examOffences,
  notifications,
  paymentIssues,
  payments,
  resits,
  resultHolds,
  scoreSheets,
  trainingSchools,
  users,
} from './db/schema';

/**
 * The school an entity of each kind belongs to, as a scalar subquery on its id: the audit trail's
 * school filter reads it from the entry (`audit_log.school_id`), written once when the entry is. Kinds
 * not here are the board's own (a diet, a fee, a course header, a broadcast): their entries take the
 * acting user's school, which a board admin has none of. Migration 0021 filled the entries written
 * before by the same rules.
 */
const SCHOOL_OF: Partial<Record<AuditEntity, (id: number) => SQL>> = {
  candidate: (id) => own(candidates, candidates.trainingSchoolId, id),
  training_school: (id) =>
    sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.id} = ${id})`,
  user: (id) => own(users, users.trainingSchoolId, id),
  payment: (id) => own(payments, payments.trainingSchoolId, id),
  score_sheet: (id) => own(scoreSheets, scoreSheets.trainingSchoolId, id),
  notification: (id) => own(notifications, notifications.trainingSchoolId, id),
  conversation: (id) => own(conversations, conversations.trainingSchoolId, id),
  document_print: (id) => own(documentPrints, documentPrints.trainingSchoolId, id),
  exam_offence: (id) =>
    sql`(select ${candidates.trainingSchoolId} from ${examOffences} join ${candidates} on ${candidates.id} = ${examOffences.candidateId} where ${examOffences.id} = ${id})`,
  resit: (id) =>
    sql`(select ${candidates.trainingSchoolId} from ${resits} join ${candidates} on ${candidates.id} = ${resits.candidateId} where ${resits.id} = ${id})`,
  result_hold: (id) =>
    sql`(select ${candidates.trainingSchoolId} from ${resultHolds} join ${candidates} on ${candidates.id} = ${resultHolds.candidateId} where ${resultHolds.id} = ${id})`,
  payment_issue: (id) =>
    sql`(select ${payments.trainingSchoolId} from ${paymentIssues} join ${payments} on ${payments.id} = ${paymentIssues.paymentId} where ${paymentIssues.id} = ${id})`,
  access_token: (id) =>
    sql`(select ${users.trainingSchoolId} from ${accessTokens} join ${users} on ${users.id} = ${accessTokens.userId} where ${accessTokens.id} = ${id})`,
};

function own(table: PgTable & { id: AnyPgColumn }, school: AnyPgColumn, id: number): SQL {
  return sql`(select ${school} from ${table} where ${table.id} = ${id})`;
}

/** Ids a subquery can be asked about: a whole number an integer column holds. */
const asId = (value: string | number | null | undefined) => {
  const id = Number(value);
  return value != null && /^\d{1,10}$/.test(String(value)) && id <= 2_147_483_647 ? id : null;
};

/**
 * The school an entry is about, for `audit()`'s insert: the entity's school, else the acting user's
 * (a school admin's own actions, and an admin's made as one), else none; computed by the database in
 * the same statement, so writing an entry costs no extra round trip.
 */
export function schoolOfEntry(
  entity: AuditEntity,
  entityId: string | number | null | undefined,
  actorId: number | null,
): SQL | null {
  const id = asId(entityId);
  const ofEntity = id === null ? undefined : SCHOOL_OF[entity]?.(id);
  const ofActor =
    actorId === null
      ? undefined
      : sql`(select ${users.trainingSchoolId} from ${users} where ${users.id} = ${actorId})`;
  if (ofEntity && ofActor) return sql`coalesce(${ofEntity}, ${ofActor})`;
  return ofEntity ?? ofActor ?? null;
}
