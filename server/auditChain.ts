import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AuditChainHead, AuditChainProblem, AuditChainVerification } from '../contract/auditChain';
import type { Database } from './db/client';

/**
 * The audit log's hash chain, checked (docs/decisions.md, "A tamper-evident audit log"). The database
 * writes the chain: its insert trigger (migration 0022) gives each entry its place (`seq`, 1, 2, 3…),
 * the hash of the entry before (`prev_hash`) and its own hash, sha256 of `prev_hash` followed by the
 * entry's canonical text, and moves the chain's head (audit_chain_head) to it. Here the chain is walked
 * and every hash computed again in Node from the stored fields, without the database's functions, so a
 * changed trigger or function does not vouch for itself.
 */

/** The `prev_hash` of the first entry. */
export const GENESIS = '0'.repeat(64);

/** Entries read at a time: the walk's memory stays the same at a million entries. */
const BATCH = 5_000;

/** The smallest bigint: where the walk starts, so an entry forced in with a place of 0 or less is seen. */
const BEFORE_ALL = '-9223372036854775808';

/** An entry as the walk reads it: bigints and the time as text, the JSON as PostgreSQL writes jsonb. */
interface ChainRow {
  seq: string;
  id: string;
  /** Microseconds since 1970, whole. */
  us: string;
  actor_id: number | null;
  impersonator_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  ip: string | null;
  request_id: string | null;
  school_id: number | null;
  before: string | null;
  after: string | null;
  prev_hash: string;
  hash: string;
}

const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
const number = (value: number | string | null) => (value === null ? 'null' : String(value));

/**
 * The entry's canonical text: the JSON array the database's `audit_entry_text` writes (jsonb's output:
 * `, ` between elements), built from the stored fields. Strings are escaped by JSON.stringify as
 * PostgreSQL's escape_json does (the same short escapes, other control characters as \u00xx, nothing
 * else); `before` and `after` are taken as PostgreSQL writes the stored jsonb, never re-serialised.
 */
function entryText(row: ChainRow): string {
  return `[${[
    row.seq,
    row.id,
    row.us,
    number(row.actor_id),
    number(row.impersonator_id),
    text(row.action),
    text(row.entity),
    text(row.entity_id),
    text(row.ip),
    text(row.request_id),
    row.before ?? 'null',
    row.after ?? 'null',
    number(row.school_id),
  ].join(', ')}]`;
}

const entryHash = (prevHash: string, row: ChainRow) =>
  createHash('sha256')
    .update(prevHash + entryText(row), 'utf8')
    .digest('hex');

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** An entry's time, or the head's, as ISO text to the microsecond, in UTC. */
const isoUtc = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

export async function readChainHead(db: Database): Promise<AuditChainHead> {
  const [head] = rowsOf<{ seq: string; id: string | null; hash: string; at: string | null }>(
    await db.execute(sql`
      select last_seq::text as seq, last_id::text as id, last_hash as hash, ${isoUtc('last_at')} as at
      from audit_chain_head`),
  );
  if (!head) throw new Error('The audit chain has no head: the audit_chain_head row is gone.');
  return {
    entries: Number(head.seq),
    id: head.id === null ? null : Number(head.id),
    hash: head.hash,
    at: head.at,
  };
}

/** A printed head (an entry's id and its hash), to prove the chain still passes through it. */
export interface PrintedHead {
  id: number;
  hash: string;
}

const entry = (row: { id: string; seq: string }) => `entry ${row.id} (number ${row.seq} in the chain)`;

/**
 * Walks the whole chain in order of place, BATCH entries a query, and answers the first problem found
 * with its words, or none. What each finding means:
 * - edited: an entry's hash no longer matches its fields (changed after it was written);
 * - deleted: a place skipped, or an entry chained to a hash the entry before it does not have;
 * - inserted: an entry whose successor is chained past it, or two entries at one place;
 * - cut: the log ends before the place the head names, or its last entry is not the head's;
 * - extended: entries after the head, which no insert through the trigger can make.
 * The head and the entries beyond it are read in one statement (one snapshot) before the walk, and the
 * walk stops at the head's place, so entries written meanwhile through the portal are not counted as
 * extensions. Entries are never changed legitimately, so the walk needs no transaction (on PGlite a
 * transaction would hold every other query for the walk's whole length).
 */
export async function verifyChain(db: Database, printed?: PrintedHead): Promise<AuditChainVerification> {
  const started = performance.now();
  const [start] = rowsOf<{
    seq: string;
    id: string | null;
    hash: string;
    at: string | null;
    beyond: number;
    first_beyond: string | null;
  }>(
    await db.execute(sql`
      select h.last_seq::text as seq, h.last_id::text as id, h.last_hash as hash, ${isoUtc('h.last_at')} as at,
        (select count(*)::int from audit_log where seq > h.last_seq) as beyond,
        (select min(id)::text from audit_log where seq > h.last_seq) as first_beyond
      from audit_chain_head h`),
  );
  if (!start) throw new Error('The audit chain has no head: the audit_chain_head row is gone.');
  const head: AuditChainHead = {
    entries: Number(start.seq),
    id: start.id === null ? null : Number(start.id),
    hash: start.hash,
    at: start.at,
  };

  let checked = 0;
  let problem: AuditChainProblem | null = null;
  let previous: ChainRow | null = null;
  let printedFound = false;
  const found = (kind: AuditChainProblem['kind'], row: { id: string } | null, message: string) => {
    problem = { kind, entry_id: row ? Number(row.id) : null, message };
  };

  // Keyset by place; `>=` and the ids already seen at the last place, so that two entries forced in at
  // one place (with the unique index dropped) are both read even where a batch ends between them.
  let seenAtLast = new Set<string>();
  walk: for (let after = BEFORE_ALL; ;) {
    const rows = rowsOf<ChainRow>(
      await db.execute(sql`
        select seq::text, id::text, ((extract(epoch from at) * 1000000)::bigint)::text as us,
          actor_id, impersonator_id, action, entity, entity_id, ip, request_id, school_id,
          before::text as before, after::text as after, prev_hash, hash
        from audit_log
        where seq >= ${after}::bigint and seq <= ${start.seq}::bigint
        order by audit_log.seq, audit_log.id
        limit ${BATCH + seenAtLast.size}`),
    );
    const fresh = rows.filter((row) => !(row.seq === after && seenAtLast.has(row.id)));
    for (const row of fresh) {
      if (!/^[0-9a-f]{64}$/.test(row.hash)) {
        found(
          'inserted',
          row,
          `An entry was inserted behind the portal's back: ${entry(row)} has no chain hash.`,
        );
        break walk;
      }
      if (entryHash(row.prev_hash, row) !== row.hash) {
        found(
          'edited',
          row,
          `The log was edited: ${entry(row)} no longer matches its hash; it was changed after it was written.`,
        );
        break walk;
      }
      if (previous === null) {
        if (BigInt(row.seq) < 1n) {
          found('inserted', row, `An entry was inserted: ${entry(row)} comes before the chain's first.`);
          break walk;
        }
        if (row.seq !== '1' || row.prev_hash !== GENESIS) {
          found(
            'deleted',
            row,
            `The log's beginning was deleted: its first entry is ${entry(row)}, not the chain's first.`,
          );
          break walk;
        }
      } else if (row.seq === previous.seq) {
        found(
          'inserted',
          row,
          `An entry was inserted: ${entry(row)} takes the place of entry ${previous.id}.`,
        );
        break walk;
      } else if (row.prev_hash !== previous.hash) {
        if (row.prev_hash === previous.prev_hash) {
          found(
            'inserted',
            previous,
            `An entry was inserted: ${entry(previous)} is not in the chain; entry ${row.id}, after it, is chained to the entry before it.`,
          );
        } else {
          found(
            'deleted',
            row,
            `Entries were deleted: ${entry(row)} is chained to an entry that is no longer in the log (the one before it now is entry ${previous.id}).`,
          );
        }
        break walk;
      } else if (BigInt(row.seq) !== BigInt(previous.seq) + 1n) {
        found(
          'deleted',
          row,
          `Entries were deleted: the chain goes from number ${previous.seq} to number ${row.seq}, before entry ${row.id}.`,
        );
        break walk;
      }
      if (printed && Number(row.id) === printed.id) {
        if (row.hash !== printed.hash) {
          found(
            'edited',
            row,
            `The log is not the one printed: entry ${row.id}'s hash is ${row.hash}, the printed head says ${printed.hash}; everything up to it was written again.`,
          );
          break walk;
        }
        printedFound = true;
      }
      previous = row;
      checked++;
    }
    if (rows.length < BATCH + seenAtLast.size) break;
    const lastSeq = rows[rows.length - 1].seq;
    const atLast = rows.filter((row) => row.seq === lastSeq).map((row) => row.id);
    seenAtLast = lastSeq === after ? new Set([...seenAtLast, ...atLast]) : new Set(atLast);
    after = lastSeq;
  }

  if (!problem) {
    const last = previous as ChainRow | null;
    if (start.seq !== (last?.seq ?? '0')) {
      found(
        'cut',
        last,
        last
          ? `The log was cut: it ends at ${entry(last)}, but the chain's head says it has ${start.seq} entries, the last entry ${start.id}.`
          : `The log was cut: it has no entries, but the chain's head says it has ${start.seq}, the last entry ${start.id}.`,
      );
    } else if (last && last.hash !== start.hash) {
      found(
        'cut',
        last,
        `The log was cut and written again: its last entry, ${entry(last)}, is not the one the chain's head names.`,
      );
    } else if (start.beyond > 0) {
      found(
        'extended',
        start.first_beyond === null ? null : { id: start.first_beyond },
        `The log was extended behind the portal's back: ${start.beyond} ${start.beyond === 1 ? 'entry comes' : 'entries come'} after the chain's head (entry ${start.id ?? 'none'}), from entry ${start.first_beyond}.`,
      );
    } else if (printed && !printedFound) {
      found(
        'cut',
        null,
        `The log is not the one printed: entry ${printed.id} of the printed head is not in the chain.`,
      );
    }
  }
  const result = problem as AuditChainProblem | null;
  return {
    head,
    checked,
    ok: result === null,
    problem: result,
    message:
      result?.message ??
      `The log is whole: ${checked} ${checked === 1 ? 'entry' : 'entries'} checked, each chained to the one before, ending at the chain's head${head.id === null ? '' : ` (entry ${head.id})`}.`,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}
