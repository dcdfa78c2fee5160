import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentCell } from '../../contract/documents';
import type { PrintDocumentEnding } from '../../contract/navigation';
import { PRINT_PHOTO_FIELD } from '../../server/candidates/uploads';
import type { Database } from '../../server/db/client';
import {
  candidates,
  courseHeaders,
  diets,
  examOffences,
  files,
  nationalities,
  publishedResults,
  registrations,
  resultPublications,
  trainingSchools,
  users,
} from '../../server/db/schema';
import type { BuiltBlock, BuiltDocument, DocumentScope, Rows } from '../../server/documents/builder';
import { BUILDERS } from '../../server/documents/builders';
import { DOCUMENT_BATCH } from '../../server/documents/builders/candidateRows';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The builders of the documents about candidates (lists, photocards, the index form, the information
 * sheet, the documents checklist), each built from the living demo for a real scope and read as text,
 * its counts checked against SQL of its own; a list of 5,000 generated candidates read in batches; and a
 * card's facts after its holder's name changes.
 */

let t: TestPortal;
let db: Database;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  db = t.portal.database.db;
}, 120_000);
afterAll(() => t?.close());

const builder = (ending: PrintDocumentEnding) => {
  const found = BUILDERS[ending];
  if (!found) throw new Error(`No builder for ${ending}`);
  return found;
};

/** A scope as the print pipeline resolves it, from codes. */
async function scopeOf(choice: {
  diet?: 'current' | 'past';
  school?: string;
  courseHeader?: string;
  candidateIndex?: string;
  variant?: string;
}): Promise<DocumentScope> {
  const scope: DocumentScope = {
    diet: null,
    school: null,
    courseHeader: null,
    paper: null,
    candidate: null,
    variant: choice.variant ?? null,
  };
  if (choice.diet) {
    const [diet] = await db
      .select({ id: diets.id, code: diets.code, name: diets.name })
      .from(diets)
      .where(choice.diet === 'current' ? eq(diets.current, true) : sql`${diets.closedAt} is not null`);
    scope.diet = diet;
  }
  if (choice.school) {
    const [school] = await db
      .select({ id: trainingSchools.id, code: trainingSchools.code, name: trainingSchools.name })
      .from(trainingSchools)
      .where(eq(trainingSchools.code, choice.school));
    scope.school = school;
  }
  if (choice.courseHeader) {
    const [header] = await db
      .select({ id: courseHeaders.id, code: courseHeaders.code, name: courseHeaders.title })
      .from(courseHeaders)
      .where(eq(courseHeaders.code, choice.courseHeader));
    scope.courseHeader = header;
  }
  if (choice.candidateIndex) {
    const [candidate] = await db
      .select({
        id: candidates.id,
        candidateIndex: candidates.candidateIndex,
        trainingSchoolId: candidates.trainingSchoolId,
      })
      .from(candidates)
      .where(eq(candidates.candidateIndex, choice.candidateIndex));
    scope.candidate = candidate;
  }
  return scope;
}

/** Every item of rows built in batches (or at once), with the batches' sizes. */
async function readRows<T>(rows: Rows<T>) {
  if (Array.isArray(rows)) return { count: rows.length, items: [...rows] as T[], batches: [rows.length] };
  const { count, batches } = rows as Extract<Rows<T>, { count: number }>;
  const items: T[] = [];
  const sizes: number[] = [];
  for await (const batch of batches) {
    items.push(...batch);
    sizes.push(batch.length);
  }
  return { count, items, batches: sizes };
}

const cellText = (cell: DocumentCell) => (typeof cell === 'string' ? cell : `[photo ${cell.photo ?? 'none'}]`);

/** The document as text, top to bottom, as a reader sees it (photos named by their key). */
async function textOf(document: BuiltDocument): Promise<string> {
  const lines = document.heading.map((h) => `${h.label}: ${h.value}`);
  for (const block of document.blocks) lines.push(...(await blockText(block)));
  return lines.join('\n');
}

async function blockText(block: BuiltBlock): Promise<string[]> {
  switch (block.kind) {
    case 'table': {
      const { items } = await readRows(block.rows);
      const rows = items.map((row) => row.cells);
      return [
        ...(block.title ? [block.title] : []),
        block.columns.map((c) => c.label).join(' | '),
        ...rows.map((cells) => cells.map(cellText).join(' | ')),
        ...(block.totals ? [block.totals.join(' | ')] : []),
      ];
    }
    case 'cards': {
      const { items } = await readRows(block.cards);
      return items.map(({ card }) =>
        [card.surname, card.otherNames, card.candidateIndex, card.sex, card.dateOfBirth, card.courseHeader, card.school, card.papers.join(', '), card.diet].join(' | '),
      );
    }
    case 'fields':
      return [block.title, ...block.fields.map((f) => `${f.label}: ${f.value}`)];
    case 'signatures':
      return block.labels;
    case 'chart':
      return [block.title];
    default:
      return [block.text];
  }
}

/** The single table of a list document. */
function tableOf(document: BuiltDocument) {
  const table = document.blocks.find((block) => block.kind === 'table');
  if (!table || table.kind !== 'table') throw new Error('No table');
  return table;
}

/** Rows of raw SQL (both drivers answer `rows`). */
async function rowsOf<T>(query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function countOf(query: SQL): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(sql`select count(*)::int as n from (${query}) as q`);
  return Number(row.n);
}

const SCHOOL = 'SHT-IB';
const OTHER_SCHOOL = 'SHT-KN';

describe('the candidate lists', () => {
  it('the indexed list of a school: every candidate of the school, in the hall order, none of another', async () => {
    const scope = await scopeOf({ school: SCHOOL });
    const expected = await countOf(
      sql`select 1 from ${candidates} where ${candidates.trainingSchoolId} = ${scope.school!.id}`,
    );
    expect(expected).toBeGreaterThan(10);
    expect(await builder('indexed-candidate-list').count(db, scope)).toBe(expected);
    const document = await builder('indexed-candidate-list').build(db, scope);
    const table = tableOf(document);
    const { count, items } = await readRows(table.rows);
    expect(count).toBe(expected);
    expect(items).toHaveLength(expected);
    expect(table.columns.map((c) => c.label)).not.toContain('Training school');
    expect(table.totals?.[0]).toBe(`Total: ${expected} candidates`);

    const [one] = await db
      .select()
      .from(candidates)
      .where(eq(candidates.trainingSchoolId, scope.school!.id))
      .limit(1);
    const text = await textOf(document);
    expect(text).toContain(`${one.last_name.toLocaleUpperCase('en-NG')}, ${one.first_name}`);
    expect(text).toContain(one.candidateIndex);
    expect(text).toContain('School of Health Technology, Ibadan');

    const other = await scopeOf({ school: OTHER_SCHOOL });
    const [stranger] = await db
      .select({ index: candidates.candidateIndex })
      .from(candidates)
      .where(eq(candidates.trainingSchoolId, other.school!.id))
      .limit(1);
    expect(text).not.toContain(stranger.index);

    // The hall's order: course header, then index number (S/N counts from 1).
    const keys = items.map((row) => row.key);
    const headerOf = (index: string) => index.split('/')[2];
    const sorted = [...keys].sort((a, b) =>
      headerOf(a) === headerOf(b) ? (a < b ? -1 : 1) : headerOf(a) < headerOf(b) ? -1 : 1,
    );
    expect(keys).toEqual(sorted);
    expect(items.map((row) => row.cells[0])).toEqual(items.map((_, i) => String(i + 1)));
  });

  it('verified and unverified lists split the indexed one by the board’s check', async () => {
    const scope = await scopeOf({ school: SCHOOL });
    const verified = await countOf(
      sql`select 1 from ${candidates} where ${candidates.trainingSchoolId} = ${scope.school!.id} and ${candidates.verified}`,
    );
    const unverified = await countOf(
      sql`select 1 from ${candidates} where ${candidates.trainingSchoolId} = ${scope.school!.id} and not ${candidates.verified}`,
    );
    expect(verified).toBeGreaterThan(0);
    expect(unverified).toBeGreaterThan(0);
    const v = await readRows(tableOf(await builder('verified-candidate-list').build(db, scope)).rows);
    const u = await readRows(tableOf(await builder('unverified-candidate-list').build(db, scope)).rows);
    expect(v.count).toBe(verified);
    expect(u.count).toBe(unverified);
    expect(v.items.every((row) => row.facts.Status.startsWith('Verified'))).toBe(true);
    expect(u.items.every((row) => row.facts.Status === 'Not verified')).toBe(true);
    const both = new Set([...v.items, ...u.items].map((row) => row.key));
    expect(both.size).toBe(verified + unverified);
  });

  it('fresh, resit and whole lists of the current diet, for the whole board', async () => {
    const scope = await scopeOf({ diet: 'current' });
    const dietId = scope.diet!.id;
    const resitSql = sql`exists (select 1 from resits r where r.candidate_id = c.id and r.diet_id = ${dietId} and r.removed_at is null)`;
    const registeredSql = sql`exists (select 1 from registrations g where g.candidate_id = c.id and g.diet_id = ${dietId} and g.reg_status = 'registered')`;
    const fresh = await countOf(sql`select 1 from candidates c where ${registeredSql} and not ${resitSql}`);
    const resit = await countOf(sql`select 1 from candidates c where ${resitSql}`);
    const all = await countOf(sql`select 1 from candidates c where ${registeredSql} or ${resitSql}`);
    expect(fresh).toBeGreaterThan(0);
    expect(resit).toBeGreaterThan(0);

    const freshDoc = await builder('fresh-candidate-list').build(db, scope);
    const resitDoc = await builder('resit-candidate-list').build(db, scope);
    const allDoc = await builder('candidate-list').build(db, scope);
    expect((await readRows(tableOf(freshDoc).rows)).count).toBe(fresh);
    const resitRows = await readRows(tableOf(resitDoc).rows);
    expect(resitRows.count).toBe(resit);
    const allRows = await readRows(tableOf(allDoc).rows);
    expect(allRows.count).toBe(all);
    expect(allRows.items).toHaveLength(all);
    expect(await builder('candidate-list').count(db, scope)).toBe(all);

    // The resit list names the papers of each entry; the whole list says who resits.
    const [entry] = await rowsOf<{ index: string; papers: string[] }>(sql`select c.candidate_index as index, r.papers from resits r join candidates c on c.id = r.candidate_id
          where r.diet_id = ${dietId} and r.removed_at is null order by r.id limit 1`);
    const row = resitRows.items.find((item) => item.key === entry.index)!;
    expect(row.facts.Papers).toBe(entry.papers.join(', '));
    expect(allRows.items.find((item) => item.key === entry.index)!.facts.Status).toContain(
      `Resit: ${entry.papers.join(', ')}`,
    );
    // Whole board: the school column is there, and the hall's notice says what the portal does not hold.
    expect(tableOf(allDoc).columns.map((c) => c.label)).toContain('Training school');
    expect(await textOf(allDoc)).toContain('The portal does not hold examination centres');
    const whole = allRows.items.find((item) => item.key === entry.index)!;
    expect(await builder('candidate-list').factsOf!(db, scope, entry.index)).toEqual(whole.facts);
  });

  it('the album layout puts the small print photo first and a signature box last', async () => {
    const [one] = await db
      .select({ id: candidates.id, index: candidates.candidateIndex, header: courseHeaders.code })
      .from(candidates)
      .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(eq(trainingSchools.code, SCHOOL))
      .limit(1);
    const scope = await scopeOf({ school: SCHOOL, courseHeader: one.header, variant: 'album' });
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.org'));
    const key = `candidates/print-${one.id}.jpg`;
    await db.insert(files).values({
      key,
      kind: 'candidate_upload',
      ownerId: admin.id,
      contentType: 'image/jpeg',
      size: 1000,
      candidateId: one.id,
      field: PRINT_PHOTO_FIELD,
    });
    const table = tableOf(await builder('indexed-candidate-list').build(db, scope));
    expect(table.columns[0].label).toBe('Photo');
    expect(table.columns.at(-1)).toMatchObject({ label: 'Signature', blank: true });
    expect(table.columns.map((c) => c.label)).not.toContain('Course header');
    const { items } = await readRows(table.rows);
    expect(items.find((row) => row.key === one.index)!.cells[0]).toEqual({ photo: key });
    expect(items.filter((row) => row.key !== one.index).every((row) => (row.cells[0] as { photo: null }).photo === null)).toBe(true);
  });
});

describe('photocards', () => {
  it('one card for each candidate of the school sitting the diet, with their papers; factsOf changes with the name', async () => {
    const scope = await scopeOf({ diet: 'current', school: SCHOOL });
    const dietId = scope.diet!.id;
    const expected = await countOf(
      sql`select 1 from candidates c where c.training_school_id = ${scope.school!.id} and (
        exists (select 1 from registrations g where g.candidate_id = c.id and g.diet_id = ${dietId} and g.reg_status = 'registered')
        or exists (select 1 from resits r where r.candidate_id = c.id and r.diet_id = ${dietId} and r.removed_at is null))`,
    );
    expect(expected).toBeGreaterThan(0);
    expect(await builder('photocard').count(db, scope)).toBe(expected);
    const document = await builder('photocard').build(db, scope);
    const block = document.blocks.find((b) => b.kind === 'cards');
    if (block?.kind !== 'cards') throw new Error('No cards');
    const { count, items } = await readRows(block.cards);
    expect(count).toBe(expected);
    expect(items).toHaveLength(expected);
    expect(document.facts.Cards).toBe(String(expected));

    const { card, facts, key } = items.find((item) => item.card.papers.includes('Paper I'))!;
    const [person] = await db.select().from(candidates).where(eq(candidates.candidateIndex, key));
    expect(card.surname).toBe(person.last_name.toLocaleUpperCase('en-NG'));
    expect(card.otherNames).toContain(person.first_name);
    expect(card.school).toContain('School of Health Technology, Ibadan');
    expect(card.diet).toContain(scope.diet!.code);
    expect(facts.Sanction).toBe('None');
    expect(await textOf(document)).toContain(key);

    // A card of a 5,000-card print verifies alone: its facts now, then after the name changes.
    expect(await builder('photocard').factsOf!(db, scope, key)).toEqual(facts);
    await db.update(candidates).set({ last_name: 'Ọlábísí' }).where(eq(candidates.id, person.id));
    const now = await builder('photocard').factsOf!(db, scope, key);
    expect(now?.Surname).toBe('ỌLÁBÍSÍ');
    expect(now).not.toEqual(facts);
    // A sanction recorded since barring the diet is a change too, and its holder gets no card any more.
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.org'));
    const [past] = await db.select({ id: diets.id }).from(diets).where(sql`${diets.closedAt} is not null`);
    await db.insert(examOffences).values({
      candidateId: person.id,
      dietId: past.id,
      offence: 'Impersonation',
      sanction: 'Barred from the next examination',
      sanctionDiets: 1,
      createdBy: admin.id,
    });
    expect((await builder('photocard').factsOf!(db, scope, key))?.Sanction).toBe('Barred from the next examination');
    expect(await builder('photocard').count(db, scope)).toBe(expected - 1);
    const after = await builder('photocard').build(db, scope);
    expect(await textOf(after)).toContain('1 candidate is barred from this diet by a sanction and has no card.');
    expect(await builder('photocard').factsOf!(db, scope, 'WHB/00/XX/999999')).toBeNull();
  });

  it('one candidate’s card, the papers of their resit entry', async () => {
    const scope0 = await scopeOf({ diet: 'current' });
    const [entry] = await rowsOf<{ index: string; papers: string[] }>(sql`select c.candidate_index as index, r.papers from resits r join candidates c on c.id = r.candidate_id
          where r.diet_id = ${scope0.diet!.id} and r.removed_at is null order by r.id desc limit 1`);
    const scope = await scopeOf({ diet: 'current', candidateIndex: entry.index });
    const block = (await builder('photocard').build(db, scope)).blocks.find((b) => b.kind === 'cards');
    if (block?.kind !== 'cards') throw new Error('No cards');
    const { items } = await readRows(block.cards);
    expect(items.map((i) => i.key)).toEqual([entry.index]);
    expect(items[0].card.papers).toEqual(entry.papers);
  });
});

describe('one candidate’s papers', () => {
  it('the index form: the whole record, its uploads and the signature lines', async () => {
    const [one] = await db
      .select()
      .from(candidates)
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(eq(courseHeaders.code, 'A4'))
      .limit(1);
    const scope = await scopeOf({ candidateIndex: one.candidates.candidateIndex });
    const document = await builder('candidate-index-form').build(db, scope);
    const text = await textOf(document);
    expect(text).toContain(`Index number: ${one.candidates.candidateIndex}`);
    expect(text).toContain(`Surname: ${one.candidates.last_name.toLocaleUpperCase('en-NG')}`);
    expect(text).toContain(`First name: ${one.candidates.first_name}`);
    expect(text).toContain('Prior certificates (not needed for course header A4)');
    expect(text).toContain('Food hygiene certificate | Required | Uploaded');
    expect(text).toContain('Candidate profile photo | Required | Uploaded');
    const [nationality] = await db
      .select({ name: nationalities.name })
      .from(nationalities)
      .where(eq(nationalities.code, one.candidates.nationality));
    expect(text).toContain(`Nationality: ${nationality.name}`);
    expect(document.blocks.at(-1)).toEqual({
      kind: 'signatures',
      labels: ['Candidate: signature and date', 'Head of the training school: signature, stamp and date'],
    });
    expect(document.facts['Index number']).toBe(one.candidates.candidateIndex);
  });

  it('the information sheet: payments and results per diet, a withdrawn result shown as withdrawn', async () => {
    // A candidate with a published result at the last diet and a payment at the current one.
    const [chosen] = await rowsOf<{ id: number; index: string; diet_id: number; course_header_id: number; outcome: string; reference: string }>(sql`select c.id, c.candidate_index as index, p.diet_id, p.course_header_id, p.outcome, pay.reference
            from published_results p join candidates c on c.id = p.candidate_id
            join payment_items i on i.candidate_id = c.id join payments pay on pay.id = i.payment_id
            order by c.id limit 1`);
    expect(chosen).toBeDefined();
    const scope = await scopeOf({ candidateIndex: chosen.index });
    const [diet] = await db.select().from(diets).where(eq(diets.id, chosen.diet_id));
    const before = await builder('candidate-info').build(db, scope);
    const text = await textOf(before);
    expect(text).toContain(`Results, ${diet.code}`);
    expect(text).toContain(chosen.reference);
    const outcome = chosen.outcome.charAt(0).toUpperCase() + chosen.outcome.slice(1);
    const resultKey = Object.keys(before.facts).find((k) => k.startsWith(`Result, ${diet.code}`))!;
    expect(before.facts[resultKey]).toContain(outcome);

    await db
      .update(resultPublications)
      .set({ withdrawnAt: new Date(), withdrawReason: 'Marks entered against the wrong paper' })
      .where(and(eq(resultPublications.dietId, chosen.diet_id), eq(resultPublications.courseHeaderId, chosen.course_header_id)));
    const after = await builder('candidate-info').build(db, scope);
    expect(after.facts[resultKey]).toBe('Withdrawn');
    const results = after.blocks.find((b) => b.kind === 'table' && b.title === `Results, ${diet.code}`);
    expect((await blockText(results!)).at(-1)).toMatch(/\| Withdrawn$/);
    // The published rows are kept after the withdrawal: still the candidate's, as withdrawn.
    expect(
      await countOf(sql`select 1 from ${publishedResults} where ${publishedResults.candidateId} = ${chosen.id}`),
    ).toBeGreaterThan(0);
    // Put back for the other tests.
    await db
      .update(resultPublications)
      .set({ withdrawnAt: null, withdrawReason: null })
      .where(and(eq(resultPublications.dietId, chosen.diet_id), eq(resultPublications.courseHeaderId, chosen.course_header_id)));
  });

  it('the documents checklist: what each candidate’s course header needs, and what is held', async () => {
    const [withB5] = await db
      .select({ code: trainingSchools.code })
      .from(candidates)
      .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
      .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
      .where(eq(courseHeaders.code, 'B5'))
      .limit(1);
    const scope = await scopeOf({ school: withB5.code, courseHeader: 'B5' });
    const expected = await countOf(
      sql`select 1 from ${candidates} where ${candidates.trainingSchoolId} = ${scope.school!.id} and ${candidates.courseHeaderId} = ${scope.courseHeader!.id}`,
    );
    const document = await builder('doc').build(db, scope);
    const { count, items } = await readRows(tableOf(document).rows);
    expect(count).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    // The demo stores each candidate's photo and the certificate their course header needs.
    for (const row of items) {
      expect(row.facts.Photo).toBe('Present');
      expect(row.facts['Prior certificate']).toBe('Not needed');
      expect(row.facts["Course header's certificate"]).toBe('ND certificate: Present');
    }
    const [first] = items;
    const [held] = await db.select({ id: candidates.id }).from(candidates).where(eq(candidates.candidateIndex, first.key));
    await db.delete(files).where(and(eq(files.candidateId, held.id), eq(files.field, 'nd_certificate_upload')));
    expect((await builder('doc').factsOf!(db, scope, first.key))?.["Course header's certificate"]).toBe(
      'ND certificate: Missing',
    );
  });
});

describe('a large list', () => {
  it('5,200 candidates of one school sitting the diet: counted, then read in batches of at most 500', async () => {
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@example.org'));
    const [school] = await db
      .insert(trainingSchools)
      .values({ code: 'LOAD-01', name: 'School of Nursing, Load Test', state: 'Lagos' })
      .returning({ id: trainingSchools.id });
    const [header] = await db.select({ id: courseHeaders.id }).from(courseHeaders).where(eq(courseHeaders.code, 'A1'));
    const scope0 = await scopeOf({ diet: 'current' });
    const size = 5200;
    await db.execute(sql`insert into candidates (candidate_index, training_school_id, course_header_id, year,
        first_name, last_name, date_of_birth, candidate_category, marital_status, gender, nationality, created_by)
      select 'WHB/26/A1/' || lpad((800000 + g)::text, 6, '0'), ${school.id}, ${header.id}, 2026,
        'Adaeze' || g, 'Okonkwo', '2001-02-03', 'fresh', 'S', 'female', 'NG', ${admin.id}
      from generate_series(1, ${size}) g`);
    await db.execute(sql`insert into ${registrations} (diet_id, candidate_id, reg_status)
      select ${scope0.diet!.id}, id, 'registered' from ${candidates} where training_school_id = ${school.id}`);

    const scope = await scopeOf({ diet: 'current', school: 'LOAD-01' });
    for (const ending of ['candidate-list', 'fresh-candidate-list', 'photocard'] as const) {
      expect(await builder(ending).count(db, scope)).toBe(size);
    }
    const table = tableOf(await builder('candidate-list').build(db, scope));
    if (Array.isArray(table.rows)) throw new Error('A large list is read in batches');
    const { count, items, batches } = await readRows(table.rows);
    expect(count).toBe(size);
    expect(items).toHaveLength(size);
    expect(Math.max(...batches)).toBeLessThanOrEqual(DOCUMENT_BATCH);
    expect(batches.length).toBe(Math.ceil(size / DOCUMENT_BATCH));
    expect(new Set(items.map((row) => row.key)).size).toBe(size);
    expect(items.at(-1)!.cells[0]).toBe(String(size));
    expect(items.map((row) => row.key)).toEqual(items.map((row) => row.key).sort());

    const cards = (await builder('photocard').build(db, scope)).blocks.find((b) => b.kind === 'cards');
    if (cards?.kind !== 'cards') throw new Error('No cards');
    const read = await readRows(cards.cards);
    expect(read.count).toBe(size);
    expect(Math.max(...read.batches)).toBeLessThanOrEqual(DOCUMENT_BATCH);
    expect(read.items[0].card.papers).toEqual(['Paper I', 'Paper II']);
  }, 120_000);
});
