import type { ReactNode } from 'react';
import type { AuditEntryRow } from '../../../contract/auditTrail';

/**
 * Links an audit entry shows under its difference, each made from the entry (null: none for it). The
 * audit trail's rows and every record's History render them, so a link added here (the machine step an
 * entry came from, on /statecharts) shows everywhere an entry does.
 */
export const ENTRY_LINKS: ((row: AuditEntryRow) => ReactNode)[] = [];
