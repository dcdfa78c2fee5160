/**
 * The audit trail as the board reads it (issue 27): its entries, the words for its actions and the
 * kinds of thing they are about, and the readable difference between an entry's before and after. The
 * catalogue itself is contract/audit.ts; this file reads it. The list's definition (its filters and
 * CSV columns) is AUDIT_TRAIL_LIST in lists.ts, like every other list.
 */

import { AUDIT_ACTIONS, type AuditAction } from './audit';
import type { Role } from './roles';

/** The kind of thing an entry is about (the catalogue's right-hand side). */
export type AuditEntity = (typeof AUDIT_ACTIONS)[AuditAction];

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** Every kind of thing the catalogue files entries under, each once, in the catalogue's order. */
export const AUDIT_ENTITIES = [...new Set(Object.values(AUDIT_ACTIONS))] as AuditEntity[];

/** 'reg_status_changed' as 'Reg status changed'. */
const words = (name: string) => {
  const text = name.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** 'training_school' as 'Training school'. */
export const auditEntityLabel = (entity: string) => words(entity);

/** 'candidate.reg_status_changed' as 'Candidate: reg status changed'. */
export function auditActionLabel(action: string): string {
  const [area, what = ''] = action.split('.');
  return `${words(area)}: ${what.replace(/_/g, ' ')}`;
}

export const AUDIT_TRAIL_MESSAGES = {
  chooseAction: 'Choose an action from the list',
  chooseEntity: 'Choose a kind of record from the list',
  email: 'Enter an email address of at most 254 characters',
  entityId: 'Enter a record number (letters, digits, - or _; at most 40)',
  school: 'Enter a school code of at most 20 characters',
  nothing: 'No entry matches these filters.',
  marksWithheld: 'The marks are withheld until both markers have submitted (blind double marking).',
} as const;

/** Who acted, or who stood behind them, as an entry shows them. */
export interface AuditPerson {
  id: number;
  name: string;
  email: string;
  role: Role;
}

/** One entry of the audit trail, as the list answers it. */
export interface AuditEntryRow {
  id: number;
  /** When it was written (ISO). */
  at: string;
  action: AuditAction;
  entity: AuditEntity;
  entity_id: string | null;
  /** The signed-in user; null for a webhook, a job or a sign-in not finished. */
  actor: AuditPerson | null;
  /** The board admin who acted as `actor` (an impersonation). */
  impersonator: AuditPerson | null;
  /** The school the entry is about (the entity's, else the acting user's). */
  school: { id: number; code: string; name: string } | null;
  ip: string | null;
  request_id: string | null;
  /** The entity before and after, as the service kept them (any JSON). */
  before: unknown;
  after: unknown;
  /** Why `before` and `after` are not shown (a mark on a sheet still marked blind), or null. */
  withheld: string | null;
}

/** One line of the readable difference: a field that changed, came or went. */
export interface AuditChange {
  /** The field, dotted for nested ones ('school.code'), as the snapshot names it. */
  field: string;
  kind: 'changed' | 'added' | 'removed';
  was: string | null;
  now: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as one line of text: text as it is, empty as '(empty)', lists and objects as JSON. */
function auditValueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * What an entry changed, field by field: fields in both whose values differ (was → now), fields only
 * after (added), fields only before (removed). Objects are compared key by key at any depth (dotted
 * names); anything else (a list, a number) is one value. An entry with neither says nothing changed.
 */
export function auditChanges(before: unknown, after: unknown, prefix = ''): AuditChange[] {
  const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
  if (isRecord(before) && isRecord(after)) {
    const changes: AuditChange[] = [];
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    for (const key of keys) {
      const inBefore = key in before && before[key] !== undefined;
      const inAfter = key in after && after[key] !== undefined;
      if (inBefore && inAfter) changes.push(...auditChanges(before[key], after[key], name(key)));
      else if (inAfter) changes.push(...appeared(after[key], name(key), 'added'));
      else if (inBefore) changes.push(...appeared(before[key], name(key), 'removed'));
    }
    return changes;
  }
  const none = (value: unknown) => value === null || value === undefined;
  if (none(before) && none(after)) return [];
  if (none(before)) return appeared(after, prefix, 'added');
  if (none(after)) return appeared(before, prefix, 'removed');
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [
    { field: prefix || 'value', kind: 'changed', was: auditValueText(before), now: auditValueText(after) },
  ];
}

/** Every field of a value that came (added) or went (removed), each on its own line. */
function appeared(value: unknown, prefix: string, kind: 'added' | 'removed'): AuditChange[] {
  if (isRecord(value) && Object.keys(value).length) {
    return Object.entries(value).flatMap(([key, inner]) =>
      appeared(inner, prefix ? `${prefix}.${key}` : key, kind),
    );
  }
  const text = auditValueText(value);
  return [
    {
      field: prefix || 'value',
      kind,
      was: kind === 'removed' ? text : null,
      now: kind === 'added' ? text : null,
    },
  ];
}

/** A field name as a person reads it: 'reg_status' as 'Reg status', 'school.code' as 'School code'. */
export const auditFieldLabel = (field: string) => words(field.replace(/\./g, ' '));

/** The difference in one line, for the CSV: 'Reg status: pending → registered; Note: added "late"'. */
export function auditChangesText(changes: AuditChange[]): string {
  return changes
    .map((change) => {
      const label = auditFieldLabel(change.field);
      if (change.kind === 'added') return `${label}: added ${change.now}`;
      if (change.kind === 'removed') return `${label}: removed (was ${change.was})`;
      return `${label}: ${change.was} → ${change.now}`;
    })
    .join('; ');
}

/** A person as one cell: 'Ada Obi <ada@board.example>'. */
export const auditPersonText = (person: AuditPerson | null) =>
  person ? `${person.name} <${person.email}>` : null;
