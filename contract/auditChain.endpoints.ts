import type { AuditChainHead, AuditChainVerification } from './auditChain';
import { printedHeadValidator } from './auditChain.validators';
import { ADMIN, endpoint, shape } from './endpoint';

/** The audit log's chain: its head, and the check of the whole log (contract/auditChain.ts). */
export const AUDIT_CHAIN_ENDPOINTS = {
  head: endpoint({
    method: 'GET',
    path: '/api/admin/audit/chain',
    roles: ADMIN,
    summary: "The audit chain's head: its number of entries, the last entry's id, hash and time",
    answer: shape<AuditChainHead>(),
  }),
  verify: endpoint({
    method: 'POST',
    path: '/api/admin/audit/chain/verify',
    roles: ADMIN,
    summary:
      'Check the whole audit log against its chain and head (and a printed head, if given); answers the first problem in words',
    input: { in: 'json', validator: printedHeadValidator },
    answer: shape<AuditChainVerification>(),
  }),
} as const;
