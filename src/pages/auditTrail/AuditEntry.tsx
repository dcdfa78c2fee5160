import { Fragment } from 'react';
import {
  auditActionLabel,
  auditChanges,
  auditEntityLabel,
  auditFieldLabel,
  type AuditEntryRow,
  type AuditPerson,
} from '../../../contract/auditTrail';
import { formatDateTime } from '../../../contract/format';
import { ROLE_LABELS } from '../../../contract/roles';
import { ENTRY_LINKS } from './entryLinks';

const personText = (person: AuditPerson) => `${person.name} (${person.email}, ${ROLE_LABELS[person.role]})`;

/** Who did it, and as whom when a board admin acted as someone else. */
function Who({ row }: { row: AuditEntryRow }) {
  if (!row.actor) return <>The portal itself (a payment provider, a job or a sign-in not finished)</>;
  if (row.impersonator && row.impersonator.id !== row.actor.id) {
    return (
      <>
        <strong>{personText(row.impersonator)}</strong>, acting as <strong>{personText(row.actor)}</strong>
      </>
    );
  }
  return <strong>{personText(row.actor)}</strong>;
}

/**
 * What the entry changed, as a person reads it: each field that changed, with what it was and what it
 * is now; fields that came or went say so.
 */
function AuditDifference({ row }: { row: AuditEntryRow }) {
  if (row.withheld) return <p className="text-sm text-slate-600">{row.withheld}</p>;
  const changes = auditChanges(row.before, row.after);
  if (!changes.length) return <p className="text-sm text-slate-600">Nothing in the record changed.</p>;
  return (
    <dl className="grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
      {changes.map((change) => (
        <Fragment key={`${change.kind}:${change.field}`}>
          <dt className="font-medium break-words text-slate-700">{auditFieldLabel(change.field)}</dt>
          <dd className="min-w-0 break-words">
            {change.kind === 'changed' && (
              <>
                was <del className="text-red-800">{change.was}</del>, now{' '}
                <ins className="text-green-800 no-underline">{change.now}</ins>
              </>
            )}
            {change.kind === 'added' && (
              <>
                added: <ins className="text-green-800 no-underline">{change.now}</ins>
              </>
            )}
            {change.kind === 'removed' && (
              <>
                removed (was <del className="text-red-800">{change.was}</del>)
              </>
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * One audit entry: what was done to which record, when, by whom (and as whom), from where, and the
 * difference it made. `showRecord`: false inside a record's own History, where the record is known.
 * Its last line holds the entry's links (ENTRY_LINKS), for others to add to.
 */
export function AuditEntry({ row, showRecord = true }: { row: AuditEntryRow; showRecord?: boolean }) {
  const links = ENTRY_LINKS.map((link, i) => <Fragment key={i}>{link(row)}</Fragment>);
  return (
    <article
      aria-label={`${auditActionLabel(row.action)}, ${formatDateTime(row.at)}`}
      className="min-w-0 rounded-md bg-white p-4 ring-1 ring-slate-200"
      data-entry={row.id}
    >
      <header className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h3 className="font-semibold break-words">{auditActionLabel(row.action)}</h3>
        <p className="text-sm text-slate-600">
          <time dateTime={row.at}>{formatDateTime(row.at)}</time> · entry {row.id}
        </p>
      </header>
      <p className="mt-1 text-sm break-words">
        <Who row={row} />
      </p>
      <p className="mt-1 text-sm break-words text-slate-600">
        {showRecord && (
          <>
            {auditEntityLabel(row.entity)}
            {row.entity_id !== null && <> {row.entity_id}</>}
            {' · '}
          </>
        )}
        {row.school ? `${row.school.name} (${row.school.code})` : 'The board'}
        {row.ip && <> · from {row.ip}</>}
        {row.request_id && (
          <>
            {' '}
            · request <span className="font-mono text-xs break-all">{row.request_id}</span>
          </>
        )}
      </p>
      <div className="mt-2">
        <AuditDifference row={row} />
      </div>
      <div className="mt-2 flex flex-wrap gap-3 text-sm empty:hidden">{links}</div>
    </article>
  );
}
