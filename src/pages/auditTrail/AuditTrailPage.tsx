import { AUDIT_ACTIONS, type AuditAction } from '../../../contract/audit';
import {
  AUDIT_ENTITIES,
  AUDIT_TRAIL_MESSAGES,
  auditActionLabel,
  auditEntityLabel,
  type AuditEntryRow,
} from '../../../contract/auditTrail';
import { AUDIT_TRAIL_LIST } from '../../../contract/lists';
import { useSelector } from '@xstate/react';
import { SelectField, TextField } from '../../ui/controls';
import { DateField } from '../../ui/DateField';
import { ListView, SearchForm } from '../../ui/ListView';
import { useList } from '../pagedList';
import { AuditChain } from '../../audit/AuditChain';
import { AuditEntries } from './History';

/** The catalogue's actions grouped by the kind of record they are about, for the Action choice. */
const ACTIONS_BY_ENTITY = AUDIT_ENTITIES.map((entity) => ({
  entity,
  actions: (Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter((action) => AUDIT_ACTIONS[action] === entity),
}));

/**
 * /audit-trail, the board admins' (issue 27): every entry of the audit log, newest first, searched by
 * who acted, which board admin acted as them, action, record, school and days; each entry with the
 * difference it made. Its CSV holds the same entries. Reached from the Dashboard and each record's
 * History, not the sidebar (the spec's entries are kept as they are).
 */
export default function AuditTrailPage() {
  const list = useList(AUDIT_TRAIL_LIST);
  const filters = useSelector(list, (s) => s.context.query.filters);
  return (
    <section className="max-w-full min-w-0">
      <h1 className="text-2xl font-semibold">Audit trail</h1>
      <p className="mt-1 text-slate-600">
        Everything done in the portal, newest first: who did it, as whom when a board admin was signed in as
        someone else, when, from where, and what it changed. Days are Lagos days.
      </p>
      <AuditChain />
      <SearchForm
        label="Filter the audit trail"
        className="my-4 grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSearch={(next) => list.send({ type: 'list.filter', filters: next })}
      >
        <TextField
          label="Done by (email)"
          name="actor"
          type="email"
          autoComplete="off"
          maxLength={254}
          defaultValue={filters.actor ?? ''}
        />
        <TextField
          label="Impersonated by (board admin's email)"
          name="impersonator"
          type="email"
          autoComplete="off"
          maxLength={254}
          defaultValue={filters.impersonator ?? ''}
        />
        <SelectField label="Action" name="action" defaultValue={filters.action ?? ''}>
          <option value="">Any action</option>
          {ACTIONS_BY_ENTITY.map(({ entity, actions }) => (
            <optgroup key={entity} label={auditEntityLabel(entity)}>
              {actions.map((action) => (
                <option key={action} value={action}>
                  {auditActionLabel(action)}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <SelectField label="Record" name="entity" defaultValue={filters.entity ?? ''}>
          <option value="">Any record</option>
          {AUDIT_ENTITIES.map((entity) => (
            <option key={entity} value={entity}>
              {auditEntityLabel(entity)}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Record number"
          name="entity_id"
          autoComplete="off"
          maxLength={40}
          defaultValue={filters.entity_id ?? ''}
        />
        <TextField
          label="School code"
          name="school"
          autoComplete="off"
          maxLength={20}
          defaultValue={filters.school ?? ''}
        />
        <DateField label="From" name="from" defaultValue={filters.from} />
        <DateField label="To" name="to" defaultValue={filters.to} />
      </SearchForm>
      <ListView<AuditEntryRow> list={list} definition={AUDIT_TRAIL_LIST}>
        {(page, busy) => (
          <AuditEntries items={page.items} busy={busy} empty={AUDIT_TRAIL_MESSAGES.nothing} showRecord />
        )}
      </ListView>
    </section>
  );
}
