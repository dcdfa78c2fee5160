import { Link } from 'wouter';
import type { AuditEntity, AuditEntryRow } from '../../../contract/auditTrail';
import { AUDIT_TRAIL_LIST } from '../../../contract/lists';
import { auditTrailPathFor } from '../../../contract/navigation';
import { ListView } from '../../ui/ListView';
import { useList } from '../pagedList';
import { AuditEntry } from './AuditEntry';

/** A page of entries, each its own article, in a list the screen reader counts. */
export function AuditEntries({
  items,
  busy,
  empty,
  showRecord,
}: {
  items: AuditEntryRow[];
  busy: boolean;
  empty: string;
  showRecord: boolean;
}) {
  if (!items.length)
    return <p className="rounded-md bg-white p-4 text-slate-600 ring-1 ring-slate-200">{empty}</p>;
  return (
    <ol aria-busy={busy || undefined} className="space-y-3">
      {items.map((row) => (
        <li key={row.id}>
          <AuditEntry row={row} showRecord={showRecord} />
        </li>
      ))}
    </ol>
  );
}

/**
 * A record's history on its own page (a candidate, a school, a score sheet, a payment), from the same
 * audit log and the same list as the audit trail, filtered by the record: newest first, a page at a time,
 * with its CSV, and a link to the whole audit trail filtered so. The board admins' only: the server
 * answers the list to no one else, so a page shows it to them alone.
 */
export function History({
  entity,
  id,
  title = 'History',
}: {
  entity: AuditEntity;
  id: number | string;
  title?: string;
}) {
  const list = useList(AUDIT_TRAIL_LIST, {
    inAddress: false,
    filters: { entity, entity_id: String(id) },
  });
  const headingId = `history-${entity}-${id}`;
  return (
    <section aria-labelledby={headingId} className="mt-6 min-w-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        <Link href={auditTrailPathFor(entity, id)} className="text-sm text-brand-700 underline">
          Open in the audit trail
        </Link>
      </div>
      <p className="mb-2 text-sm text-slate-600">
        Every change to this record, newest first, from the audit trail.
      </p>
      <ListView<AuditEntryRow> list={list} definition={AUDIT_TRAIL_LIST}>
        {(page, busy) => (
          <AuditEntries
            items={page.items}
            busy={busy}
            empty="Nothing has been recorded about it yet."
            showRecord={false}
          />
        )}
      </ListView>
    </section>
  );
}
