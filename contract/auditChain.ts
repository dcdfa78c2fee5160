/**
 * The audit log's hash chain (server/auditChain.ts; docs/decisions.md, "A tamper-evident audit log"):
 * its head, which a printout keeps, and a check of the whole log against it.
 */

/** Where the chain ends: how many entries, the last one's id, hash and time (ISO, UTC, microseconds). */
export interface AuditChainHead {
  entries: number;
  id: number | null;
  hash: string;
  at: string | null;
}

/** What a check found first: an edited, deleted or inserted entry, or a log cut short or extended. */
export interface AuditChainProblem {
  kind: 'edited' | 'deleted' | 'inserted' | 'cut' | 'extended';
  /** The entry where it shows, when there is one. */
  entry_id: number | null;
  message: string;
}

export interface AuditChainVerification {
  head: AuditChainHead;
  ok: boolean;
  /** Entries checked before the answer (all of them when the log is whole). */
  checked: number;
  problem: AuditChainProblem | null;
  /** The answer in words: the problem's sentence, or that the log is whole. */
  message: string;
  seconds: number;
}

/** A head copied from a printout, to prove the chain still passes through it. */
export interface PrintedHeadInput {
  printed_id?: number;
  printed_hash?: string;
}

export const AUDIT_CHAIN_MESSAGES = {
  printedIdInvalid: "The printed entry's number is a whole number, as printed.",
  printedHashInvalid: 'The printed hash is 64 characters, 0-9 and a-f, as printed.',
  printedHashRequired: 'Give the printed hash with the printed entry.',
  printedIdRequired: 'Give the printed entry with the printed hash.',
} as const;
