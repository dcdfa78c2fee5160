import type { ReactNode } from 'react';
import type { AuditEntryRow } from '../../../contract/auditTrail';
import { MachineStepLink } from '../../statecharts/MachineStepLink';

/**
 * Links an audit entry shows under its difference, each made from the entry (null: none for it). The
 * audit trail's rows and every record's History render them, so a link added here shows everywhere an
 * entry does: the statechart transition its action comes from, on /statecharts.
 */
export const ENTRY_LINKS: ((row: AuditEntryRow) => ReactNode)[] = [
  (row) => <MachineStepLink action={row.action} />,
];
