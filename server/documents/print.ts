import { eq } from 'drizzle-orm';
import {
  BOARD_NAME,
  DOCUMENTS,
  DOCUMENT_MESSAGES as M,
  type DocumentBlock,
  type PrintedDocument,
} from '../../contract/documents';
import type { DocumentQuery } from '../../contract/documents.validators';
import { isRole, ROLE_LABELS } from '../../contract/roles';
import { audit, userOf, type Actor } from '../audit';
import type { Database } from '../db/client';
import { documentPrints, users, type StoredRowFacts } from '../db/schema';
import { NotFound, Refused } from '../errors';
import { actorOf, callerOf, dbOf, nowOf, type AppContext } from '../http/context';
import type { BuiltBlock, BuiltRow, Facts, PrintingBlock, Printing, Rows } from './builder';
import { BUILDERS } from './builders';
import { codeKey, makeCode } from './codes';
import { resolveQuery, type Requester } from './params';
import { verificationOf } from './qr';

/**
 * The print pipeline: a document's query resolved against the caller, built by its builder, recorded
 * (document_prints) before a row is drawn, so that the document's code (row 0) and each card's code
 * (its row number) exist as the drawing streams them; printing one that names candidates is audited.
 * As the drawing reads the rows, what each certifies is collected, and `finish()` stores it, so that
 * verification (server/documents/verify.ts) can say later what changed, row by row.
 */

/** Who prints, from where: what the pipeline needs of a request. */
export interface PrintRequest {
  /**
   * The portal's database: the print is recorded in a transaction of its own before the drawing starts
   * (the demo's seed gives its transaction, which holds the whole demo).
   */
  db: Database;
  publicUrl: string;
  caller: Requester;
  actor: Actor;
  now: Date;
}

export const printRequestOf = (c: AppContext): PrintRequest => ({
  db: dbOf(c),
  publicUrl: c.get('deps').config.publicUrl,
  caller: callerOf(c),
  actor: actorOf(c),
  now: nowOf(c),
});

/** How many rows a table block or cards a cards block hold, before they are read. */
const countOf = (rows: Rows<unknown>) => ('count' in rows ? rows.count : rows.length);

/** Arrays read in slices, so a drawing interleaves with them as with a builder's batches. */
const SLICE = 500;
async function* batchesOf<T>(rows: Rows<T>): AsyncIterable<readonly T[]> {
  if ('batches' in rows) {
    yield* rows.batches;
    return;
  }
  for (let at = 0; at < rows.length; at += SLICE) yield rows.slice(at, at + SLICE);
}

/** One block's rows' facts as they go by, in the stored compact form. */
function factsCollector(block: number, first: number) {
  const group = { block, first, labels: [] as string[], rows: [] as (string | null)[][] };
  const add = (key: string, facts: Facts) => {
    for (const label of Object.keys(facts)) if (!group.labels.includes(label)) group.labels.push(label);
    group.rows.push([key, ...group.labels.map((label) => facts[label] ?? null)]);
  };
  return { group, add };
}

/** The printer as the paper names them: 'Ada Obi (Board admin)'. */
export async function printerName(db: Database, userId: number): Promise<string> {
  const [row] = await db
    .select({ name: users.name, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return '';
  return `${row.name} (${isRole(row.role) ? ROLE_LABELS[row.role] : row.role})`;
}

interface PrintOptions {
  /** Refuse (413, with this sentence) a document of more rows or cards than `max`, before recording it. */
  refuseOver?: { max: number; message: (count: number) => string };
  /**
   * A print run again (a job's retry): `reuse` is the print an earlier run recorded (null the first
   * time). That row is printed again, as new (its time, heading and facts now, its row facts and
   * finish cleared), and audited once only, when first recorded; `recorded` is told the print's id in
   * the transaction that records it, so the caller keeps it with its own row, all or nothing.
   */
  again?: { reuse: number | null; recorded(tx: Database, id: number): Promise<void> };
}

export async function startPrinting(
  request: PrintRequest,
  ending: string,
  query: DocumentQuery,
  options: PrintOptions = {},
): Promise<Printing> {
  const { db, publicUrl, caller, actor, now } = request;
  const { definition, scope, stored } = await resolveQuery(db, caller, ending, query);
  const builder = BUILDERS[definition.ending];
  if (!builder) throw new NotFound(M.unknownDocument);
  const built = await builder.build(db, scope);

  const counts = built.blocks.map((block) =>
    block.kind === 'table' ? countOf(block.rows) : block.kind === 'cards' ? countOf(block.cards) : 0,
  );
  const count = counts.reduce((sum, n) => sum + n, 0);
  const { refuseOver } = options;
  if (refuseOver && count > refuseOver.max) throw new Refused(413, refuseOver.message(count));

  const key = await codeKey(db);
  const printer = userOf(actor);
  const values = {
    ending: definition.ending,
    query: stored,
    trainingSchoolId: scope.school?.id ?? scope.candidate?.trainingSchoolId ?? null,
    printedBy: printer,
    impersonatorId: actor.impersonatorId,
    printedAt: now,
    heading: built.heading,
    facts: Object.entries(built.facts),
  };
  const { again } = options;
  const id = await db.transaction(async (tx) => {
    if (again?.reuse) {
      // The same print again: no paper carries an unfinished run's codes (its file was never kept).
      const [row] = await tx
        .update(documentPrints)
        .set({ ...values, rowFacts: [], rowCount: 0, finishedAt: null })
        .where(eq(documentPrints.id, again.reuse))
        .returning({ id: documentPrints.id });
      if (row) return row.id;
    }
    const [row] = await tx.insert(documentPrints).values(values).returning({ id: documentPrints.id });
    if (definition.personal) {
      await audit(tx, actor, {
        action: 'document.printed',
        entityId: row.id,
        after: { ending: definition.ending, query: stored, rows: count },
      });
    }
    await again?.recorded(tx, row.id);
    return row.id;
  });
  const codeOf = (row: number) => verificationOf(makeCode(key, { printId: id, row }), publicUrl);

  // Row numbers run across the blocks in order: a block's first is after all the earlier blocks' rows.
  const collectors: ReturnType<typeof factsCollector>[] = [];
  let offset = 0;
  const blocks = built.blocks.map((block: BuiltBlock, index): PrintingBlock => {
    const first = offset;
    offset += counts[index];
    if (block.kind === 'table') {
      const collector = factsCollector(index, first);
      collectors.push(collector);
      const { rows, ...table } = block;
      return {
        ...table,
        count: counts[index],
        rows: (async function* () {
          for await (const batch of batchesOf<BuiltRow>(rows)) {
            for (const row of batch) collector.add(row.key, row.facts);
            yield batch.map((row) => row.cells);
          }
        })(),
      };
    }
    if (block.kind === 'cards') {
      const collector = factsCollector(index, first);
      collectors.push(collector);
      const { cards } = block;
      return {
        kind: 'cards',
        count: counts[index],
        cards: (async function* () {
          for await (const batch of batchesOf(cards)) {
            yield batch.map(({ key: cardKey, card, facts }) => {
              collector.add(cardKey, facts);
              return { ...card, verification: codeOf(first + collector.group.rows.length) };
            });
          }
        })(),
      };
    }
    return block;
  });

  let finished = false;
  const started = performance.now();
  return {
    id,
    head: {
      ending: definition.ending,
      title: DOCUMENTS[definition.ending].title,
      board: BOARD_NAME,
      heading: built.heading,
      printedAt: now.toISOString(),
      printedBy: await printerName(db, printer),
      verification: codeOf(0),
    },
    count,
    blocks,
    async finish() {
      if (finished) return;
      finished = true;
      const rowFacts: StoredRowFacts = collectors.map((collector) => collector.group);
      await db
        .update(documentPrints)
        .set({
          rowFacts,
          rowCount: rowFacts.reduce((sum, group) => sum + group.rows.length, 0),
          // By the same clock as printedAt (the server's, or the demo's set back).
          finishedAt: new Date(now.getTime() + (performance.now() - started)),
        })
        .where(eq(documentPrints.id, id));
    },
  };
}

/** A print read whole, for the HTML print page (the JSON route); its facts stored as it is read. */
export async function printedDocumentOf(printing: Printing): Promise<PrintedDocument> {
  const blocks: DocumentBlock[] = [];
  for (const block of printing.blocks) {
    if (block.kind === 'table') {
      const { count: _count, rows, ...table } = block;
      const all: Extract<DocumentBlock, { kind: 'table' }> = { ...table, rows: [] };
      for await (const batch of rows) all.rows.push(...batch);
      blocks.push(all);
    } else if (block.kind === 'cards') {
      const cards: Extract<DocumentBlock, { kind: 'cards' }>['cards'] = [];
      for await (const batch of block.cards) cards.push(...batch);
      blocks.push({ kind: 'cards', cards });
    } else {
      blocks.push(block);
    }
  }
  await printing.finish();
  return { ...printing.head, blocks };
}
