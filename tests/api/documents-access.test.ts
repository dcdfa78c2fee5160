import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES as M, DOCUMENTS, type DocumentCatalogue } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { auditLog, documentPrints, schoolDocumentChoices } from '../../server/db/schema';
import { candidateIndexOf, currentDietOf, demoSignIns, seedCandidates, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Printable documents' access over HTTP: what each role is offered, the board's choice of what schools
 * may print, a school admin kept to their own school whatever the query says, hostile queries refused
 * with a 422 (never a 500), and which prints are audited.
 */

let t: TestPortal;
const tokens = {} as Record<'admin' | 'school1', string>;
let otherSchoolCandidate: string;
let ownCandidate: string;
let dietCode: string;

const ADMIN_PRINT = E.print.admin.path;
const SCHOOL_PRINT = E.print.school_admin.path;

const print = (token: string, path: string, ending: string, query: Record<string, string> = {}) =>
  t.request('GET', `${fillPath(path, { ending })}?${new URLSearchParams(query)}`, { token });

const setSchools = (ending: string, allowed: boolean, token = tokens.admin) =>
  t.request('POST', fillPath(E.schoolPrinting.path, { ending }), { token, json: { allowed } });

beforeAll(async () => {
  t = await startTestPortal();
  const signIns = await demoSignIns(t);
  tokens.admin = signIns.admin;
  tokens.school1 = signIns.school1;
  const [own, other] = await seedCandidates(t, [
    { first_name: 'Adaeze', last_name: 'Okafor', school: 'SHT-IB', course_header: 'A1', verified: true },
    { first_name: 'Bola', last_name: 'Adeyemi', school: 'CHT-CA', course_header: 'A1', verified: true },
  ]);
  ownCandidate = await candidateIndexOf(t, own);
  otherSchoolCandidate = await candidateIndexOf(t, other);
  dietCode = (await currentDietOf(t)).code;
});

afterAll(async () => {
  await t?.close();
});

describe('the catalogue', () => {
  it('offers the board every document, every school, and the diets newest first with the current one marked', async () => {
    const response = await t.request('GET', E.catalogue.admin.path, { token: tokens.admin });
    expect(response.status).toBe(200);
    const catalogue = response.body.data as DocumentCatalogue;
    expect(catalogue.documents.map((d) => d.ending).sort()).toEqual(Object.keys(DOCUMENTS).sort());
    for (const document of catalogue.documents) {
      expect(document.schoolsMayPrint).toBe(DOCUMENTS[document.ending].schools);
    }
    expect(catalogue.options.schools.map((s) => s.code)).toEqual(
      expect.arrayContaining(['SHT-IB', 'CHT-CA']),
    );
    expect(catalogue.options.diets.filter((d) => d.current).map((d) => d.code)).toEqual([dietCode]);
    expect(catalogue.options.courseHeaders.length).toBeGreaterThan(0);
  });

  it('offers a school admin only what the board lets schools print, and only their own school', async () => {
    const response = await t.request('GET', E.catalogue.school_admin.path, { token: tokens.school1 });
    expect(response.status).toBe(200);
    const catalogue = response.body.data as DocumentCatalogue;
    const expected = Object.values(DOCUMENTS)
      .filter((d) => d.schools)
      .map((d) => d.ending);
    expect(catalogue.documents.map((d) => d.ending).sort()).toEqual(expected.sort());
    expect(catalogue.options.schools).toEqual([{ code: 'SHT-IB', name: expect.any(String) }]);
  });

  it("is each role's own: a school admin cannot read the board's", async () => {
    expect((await t.request('GET', E.catalogue.admin.path, { token: tokens.school1 })).status).toBe(403);
    expect((await t.request('GET', E.catalogue.admin.path)).status).toBe(401);
  });
});

describe("the board's choice of what schools may print", () => {
  it('lets schools print a statistics document, audited, and stops them again', async () => {
    expect((await print(tokens.school1, SCHOOL_PRINT, 'course-index-stats')).body.message).toBe(
      M.notForSchools,
    );

    const allowed = await setSchools('course-index-stats', true);
    expect(allowed.status).toBe(200);
    expect(allowed.body.message).toBe(M.schoolPrintingChanged(DOCUMENTS['course-index-stats'].title, true));
    const catalogue = await t.request('GET', E.catalogue.school_admin.path, { token: tokens.school1 });
    expect(catalogue.body.data.documents.map((d: { ending: string }) => d.ending)).toContain(
      'course-index-stats',
    );
    const printed = await print(tokens.school1, SCHOOL_PRINT, 'course-index-stats');
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);

    const [entry] = await t.portal.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'document.school_printing_changed'),
          eq(auditLog.entityId, 'course-index-stats'),
        ),
      );
    expect(entry).toMatchObject({ before: { schools_may_print: false }, after: { schools_may_print: true } });

    expect((await setSchools('course-index-stats', false)).status).toBe(200);
    const refused = await print(tokens.school1, SCHOOL_PRINT, 'course-index-stats');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(M.notForSchools);
  });

  it('stops schools printing a document they may print by default', async () => {
    expect((await setSchools('candidate-info', false)).status).toBe(200);
    const refused = await print(tokens.school1, SCHOOL_PRINT, 'candidate-info', { candidate: ownCandidate });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(M.notForSchools);
    await setSchools('candidate-info', true);
    const [row] = await t.portal.database.db
      .select()
      .from(schoolDocumentChoices)
      .where(eq(schoolDocumentChoices.ending, 'candidate-info'));
    expect(row.allowed).toBe(true);
  });

  it('is the board’s alone, and only for documents that exist', async () => {
    expect((await setSchools('course-index-stats', true, tokens.school1)).status).toBe(403);
    const unknown = await setSchools('no-such-document', true);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(M.unknownDocument);
    const invalid = await t.request('POST', fillPath(E.schoolPrinting.path, { ending: 'photocard' }), {
      token: tokens.admin,
      json: { allowed: 'yes' },
    });
    expect(invalid.status).toBe(422);
  });
});

describe("a school admin is kept to their own school's documents", () => {
  const noSuchSchool = { school: [M.unknownSchool] };
  const noSuchCandidate = { candidate: [M.unknownCandidate] };

  it('answers another school exactly as a school that does not exist, in every document that takes one', async () => {
    for (const document of Object.values(DOCUMENTS).filter((d) => d.schools && d.params.school)) {
      const query = { diet: dietCode, course_header: 'A1', school: 'CHT-CA' };
      const other = await print(tokens.school1, SCHOOL_PRINT, document.ending, query);
      const none = await print(tokens.school1, SCHOOL_PRINT, document.ending, {
        ...query,
        school: 'NO-SUCH',
      });
      expect(other.status, document.ending).toBe(422);
      expect(other.body.message, document.ending).toEqual(noSuchSchool);
      expect(none.body, document.ending).toEqual(other.body);
    }
  });

  it("answers another school's candidate exactly as a candidate that does not exist", async () => {
    for (const document of Object.values(DOCUMENTS).filter((d) => d.schools && d.params.candidate)) {
      const query = { diet: dietCode, candidate: otherSchoolCandidate };
      const other = await print(tokens.school1, SCHOOL_PRINT, document.ending, query);
      const none = await print(tokens.school1, SCHOOL_PRINT, document.ending, {
        ...query,
        candidate: 'WHB/26/A1/999999',
      });
      expect(other.status, document.ending).toBe(422);
      expect(other.body.message, document.ending).toEqual(noSuchCandidate);
      expect(none.body, document.ending).toEqual(other.body);
      // Their own school named beside it changes nothing.
      const both = await print(tokens.school1, SCHOOL_PRINT, document.ending, { ...query, school: 'SHT-IB' });
      expect(both.status, document.ending).toBe(422);
    }
  });

  it('refuses the documents the board keeps to itself, whatever the query', async () => {
    for (const document of Object.values(DOCUMENTS).filter((d) => !d.schools)) {
      const refused = await print(tokens.school1, SCHOOL_PRINT, document.ending, {
        diet: dietCode,
        school: 'SHT-IB',
        course_header: 'A1',
      });
      expect(refused.status, document.ending).toBe(403);
      expect(refused.body.message).toBe(M.notForSchools);
    }
  });

  it("cannot reach the board's route, nor print with no sign-in", async () => {
    expect((await print(tokens.school1, ADMIN_PRINT, 'course-index-stats')).status).toBe(403);
    expect((await t.request('GET', fillPath(ADMIN_PRINT, { ending: 'course-index-stats' }))).status).toBe(
      401,
    );
  });

  it('leaves out a parameter the document does not take, and records the print by its codes', async () => {
    await setSchools('course-reg-stats', true);
    const printed = await print(tokens.school1, SCHOOL_PRINT, 'course-reg-stats', {
      diet: dietCode,
      school: 'CHT-CA',
    });
    // course-reg-stats takes no school: the parameter is never used, so it names nothing to refuse.
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    const [row] = await t.portal.database.db
      .select()
      .from(documentPrints)
      .where(eq(documentPrints.id, await lastPrintId()));
    expect(row).toMatchObject({
      ending: 'course-reg-stats',
      query: { diet: dietCode },
      trainingSchoolId: null,
    });
    expect(row.printedBy).toBe(await userIdOf(t, 'school1@example.org'));
    await setSchools('course-reg-stats', false);
  });
});

async function lastPrintId(): Promise<number> {
  const rows = await t.portal.database.db.select({ id: documentPrints.id }).from(documentPrints);
  return Math.max(...rows.map((row) => row.id));
}

describe('hostile queries', () => {
  const HOSTILE: Record<string, string>[] = [
    { paper: 'abc' },
    { paper: '0' },
    { paper: '99999999999999999999' },
    { paper: '-1' },
    { diet: "x'; drop table candidates; --" },
    { diet: 'A'.repeat(5000) },
    { school: '%00\u0000' },
    { school: 'S'.repeat(41) },
    { course_header: '../../etc/passwd' },
    { candidate: '{"$ne":null}' },
    { variant: 'zzz' },
    { variant: '<script>' },
  ];

  it('are refused with a 422 naming the field when the document takes it, and never answer a 500', async () => {
    for (const ending of [
      'course-reg-stats',
      'zonal-leaders-marksheet',
      'photocard',
      'indexed-candidate-list',
    ] as const) {
      const { params } = DOCUMENTS[ending];
      for (const query of HOSTILE) {
        const [field] = Object.keys(query);
        const taken = field === 'variant' || field in params;
        for (const [token, path] of [
          [tokens.admin, ADMIN_PRINT],
          [tokens.school1, SCHOOL_PRINT],
        ] as const) {
          const response = await print(token, path, ending, { diet: dietCode, ...query });
          const label = `${path} ${ending} ${JSON.stringify(query).slice(0, 60)}: ${response.status}`;
          expect(response.status, label).toBeLessThan(500);
          // Malformed values are refused by the query's validator whatever the document.
          if (taken || field === 'paper' || query[field].length > 40) {
            expect([403, 422], label).toContain(response.status);
          }
        }
      }
    }
  });

  it('name what a document needs before it can be printed', async () => {
    const missing = await print(tokens.admin, ADMIN_PRINT, 'zonal-leaders-marksheet');
    expect(missing.status).toBe(422);
    expect(missing.body.message).toEqual({
      diet: [M.paramRequired('Diet')],
      course_header: [M.paramRequired('Course header')],
      paper: [M.paramRequired('Paper')],
    });
  });

  it('refuse a paper of another course header, and a layout the document does not have', async () => {
    const wrongVariant = await print(tokens.admin, ADMIN_PRINT, 'indexed-candidate-list', {
      variant: 'poster',
    });
    expect(wrongVariant.body.message).toEqual({ variant: [M.unknownVariant] });
    const noPaper = await print(tokens.admin, ADMIN_PRINT, 'zonal-leaders-marksheet', {
      diet: dietCode,
      course_header: 'A1',
      paper: '999999',
    });
    expect(noPaper.body.message).toEqual({ paper: [M.unknownPaper] });
  });

  it('answer an unknown document with a 404', async () => {
    const response = await print(tokens.admin, ADMIN_PRINT, 'constructor');
    expect(response.status).toBe(404);
    expect(response.body.message).toBe(M.unknownDocument);
  });
});

describe('a print', () => {
  it('is the document with its head, its code and its blocks; a statistics one is not audited', async () => {
    const before = await t.portal.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'document.printed'));
    const response = await print(tokens.admin, ADMIN_PRINT, 'course-index-stats');
    expect(response.status).toBe(200);
    const document = response.body.data;
    expect(document).toMatchObject({
      ending: 'course-index-stats',
      title: DOCUMENTS['course-index-stats'].title,
      printedBy: expect.stringContaining('(Board admin)'),
      verification: { code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{1,4})+$/) },
    });
    expect(document.verification.url.endsWith(`/verify/${document.verification.code}`)).toBe(true);
    expect(document.verification.qr).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
    expect(document.blocks.map((block: { kind: string }) => block.kind)).toEqual(['chart', 'table']);
    // The two candidates seeded above: both A1, indexed in 2026, verified.
    expect(document.blocks[1].rows).toContainEqual([
      expect.stringMatching(/^A1 /),
      '2026',
      '2',
      '2',
      '0',
      '100%',
    ]);
    const after = await t.portal.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'document.printed'));
    expect(after.length).toBe(before.length);
  });
});
