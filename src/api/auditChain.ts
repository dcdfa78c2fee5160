import type { PrintedHeadInput } from '../../contract/auditChain';
import { AUDIT_CHAIN_ENDPOINTS as E } from '../../contract/auditChain.endpoints';
import { send } from './send';

/** The audit chain's head, and the check of the whole log (contract/auditChain.ts). */
export const loadAuditChainHead = async () => (await send(E.head)).data;

/** A printed head's entry and hash, typed; both left empty checks the log against its own head. */
export async function verifyAuditChain(values: { printed_id: string; printed_hash: string }) {
  const body: PrintedHeadInput = {};
  if (values.printed_id.trim()) body.printed_id = Number(values.printed_id.trim());
  if (values.printed_hash.trim()) body.printed_hash = values.printed_hash.trim();
  return (await send(E.verify, { body: body as Record<string, unknown> })).data;
}
