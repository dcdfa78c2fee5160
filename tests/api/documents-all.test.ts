import { and, desc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOARD_NAME,
  DOCUMENTS,
  type DocumentDefinition,
  type PrintedDocument,
} from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { PRINT_DOCUMENT_ENDINGS } from '../../contract/navigation';
import { issueToken } from '../../server/auth/tokens';
import {
  candidates,
  courseHeaders,
  diets,
  papers,
  registrations,
  resultPublications,
  trainingSchools,
} from '../../server/db/schema';
import { BUILDERS } from '../../server/documents/builders';
import { userIdOf } from './fixtures';
import { pdfPages } from './pdfs';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Every one of the 22 documents, printed from the demo over HTTP as its print page reads it (JSON) and
 * as a PDF, by the board admin and, for those the board lets schools print, by school1 for its own
 * school: each answers its title under the board's name with the heading it was asked for, holds
 * something, and its PDF's text says the same. The builders' own tests check each one's content.
 */

let t: TestPortal;
const tokens: Record<'admin' | 'school1', string> = { admin: '', school1: '' };
let query: Record<string, string>;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true, jobs: { schedule: false } });
  tokens.admin = (await issueToken(t.portal.database.db, await userIdOf(t, 'admin@example.org'), 60)).token;
  tokens.school1 = (
    await issueToken(t.portal.database.db, await userIdOf(t, 'school1@example.org'), 60)
  ).token;
  const db = t.portal.database.db;
  // The diet with published results (the demo's last sitting), a paper of A1, and a candidate of
  // SHT-IB registered for it: every document then has real rows to show.
  const [published] = await db
    .select({ code: diets.code, dietId: diets.id })
    .from(resultPublications)
    .innerJoin(diets, eq(diets.id, resultPublications.dietId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, resultPublications.courseHeaderId))
    .where(and(eq(courseHeaders.code, 'A1'), isNull(resultPublications.withdrawnAt)))
    .orderBy(desc(diets.id))
    .limit(1);
  const [paper] = await db
    .select({ id: papers.id })
    .from(papers)
    .innerJoin(courseHeaders, eq(courseHeaders.id, papers.courseHeaderId))
    .where(eq(courseHeaders.code, 'A1'))
    .limit(1);
  const [candidate] = await db
    .select({ index: candidates.candidateIndex })
    .from(candidates)
    .innerJoin(trainingSchools, eq(trainingSchools.id, candidates.trainingSchoolId))
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .innerJoin(registrations, eq(registrations.candidateId, candidates.id))
    .where(
      and(
        eq(trainingSchools.code, 'SHT-IB'),
        eq(courseHeaders.code, 'A1'),
        eq(registrations.dietId, published.dietId),
      ),
    )
    .limit(1);
  query = {
    diet: published.code,
    school: 'SHT-IB',
    course_header: 'A1',
    paper: String(paper.id),
    candidate: candidate.index,
  };
}, 120_000);
afterAll(() => t?.close());

/** The query a document takes: each of its parameters, from the demo's values above. */
const queryOf = (definition: DocumentDefinition) =>
  new URLSearchParams(
    Object.entries(query).filter(
      ([name]) => name in definition.params && !(name === 'candidate' && definition.params.diet),
    ),
  ).toString();

async function printed(role: 'admin' | 'school_admin', definition: DocumentDefinition) {
  const token = role === 'admin' ? tokens.admin : tokens.school1;
  const path = `${fillPath(E.print[role].path, { ending: definition.ending })}?${queryOf(definition)}`;
  const response = await t.request('GET', path, { token });
  expect(response.status, `${definition.ending}: ${JSON.stringify(response.body)}`).toBe(200);
  return (response.body as { data: PrintedDocument }).data;
}

async function pdfText(role: 'admin' | 'school_admin', definition: DocumentDefinition) {
  const token = role === 'admin' ? tokens.admin : tokens.school1;
  const path = `${fillPath(E.pdf[role].path, { ending: definition.ending })}?${queryOf(definition)}`;
  const response = await fetch(t.url + path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, definition.ending).toBe(200);
  const pages = pdfPages(new Uint8Array(await response.arrayBuffer()));
  pages.forEach((text, i) => expect(text, definition.ending).toContain(`Page ${i + 1} of ${pages.length}`));
  return pages.join('\n');
}

describe('the 22 documents', () => {
  it('each has its builder', () => {
    expect(Object.keys(BUILDERS).sort()).toEqual([...PRINT_DOCUMENT_ENDINGS].sort());
  });

  it.each(Object.values(DOCUMENTS))(
    '$ending prints for the board from the demo, as its page and as a PDF',
    async (definition) => {
      const document = await printed('admin', definition);
      expect(document.title).toBe(definition.title);
      expect(document.board).toBe(BOARD_NAME);
      expect(document.verification.code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{1,4})+$/);
      expect(document.blocks.length).toBeGreaterThan(0);
      const heading = document.heading.map((line) => line.value).join(' | ');
      if (definition.params.diet) expect(heading).toContain(query.diet);
      if (definition.params.school === 'required') expect(heading).toContain('SHT-IB');
      if (definition.params.course_header === 'required') expect(heading).toContain('A1');

      const text = await pdfText('admin', definition);
      expect(text).toContain(BOARD_NAME);
      expect(text).toContain(definition.title);
      // The PDF is a print of its own, with its own code.
      expect(text).toMatch(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
      expect(text).not.toContain(document.verification.code);
    },
  );

  it.each(Object.values(DOCUMENTS).filter((definition) => definition.schools))(
    '$ending prints for a school admin, about their own school',
    async (definition) => {
      const document = await printed('school_admin', definition);
      expect(document.title).toBe(definition.title);
      const heading = document.heading.map((line) => line.value).join(' | ');
      if (definition.params.school) expect(heading).toContain('SHT-IB');
      expect(heading).not.toContain('CHT-CA');
    },
  );
});
