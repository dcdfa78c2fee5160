import { sql, type SQL } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { resultCells, type CandidateDossier } from '../../contract/candidateDossier';
import type { PrintedDocument } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { formatDateTime } from '../../contract/format';
import { FEE_KIND_LABELS, formatNaira, PAYMENT_STATUS_LABELS } from '../../contract/payments';
import { CANDIDATE_OUTCOME_MESSAGES as O, UPLOAD_FIELDS } from '../../contract/candidates';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import { OFFENDERS_LIST } from '../../contract/lists';
import { OFFENDER_ENDPOINTS } from '../../contract/offenders.endpoints';
import type { OffenderRow } from '../../contract/offenders';
import type { Role } from '../../contract/roles';
import { SCORE_ENDPOINTS } from '../../contract/scores.endpoints';
import { issueToken } from '../../server/auth/tokens';
import { boardToday } from '../../server/boardDate';
import { candidateDossier } from '../../server/candidates/dossier';
import { PRINT_PHOTO_FIELD } from '../../server/candidates/uploads';
import type { Database } from '../../server/db/client';
import { demoSignIns, fetchRaw, schoolIdOf, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Issue 25, item 6: a candidate's record page. Read on the living demo and checked against what the
 * database holds, section by section, in SQL written here (not the service's queries); a school admin
 * reads their own school's candidates and nothing else (another school's is the same 404 as an unknown
 * id); hostile ids are refusals, never a failure of the portal.
 */

let t: TestPortal;
const db = () => t.portal.database.db;
const tokens = {} as Record<'admin' | 'school1' | 'school2', string>;
const E = CANDIDATE_ENDPOINTS.record;

const rows = async <T>(query: SQL) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const recordPath = (role: Role, id: number | string) => E[role].path.replace(':id', String(id));
const read = (who: keyof typeof tokens, role: Role, id: number | string) =>
  t.request('GET', recordPath(role, id), { token: tokens[who] });
async function dossierOf(id: number, who: keyof typeof tokens = 'admin'): Promise<CandidateDossier> {
  const answer = await read(who, who === 'admin' ? 'admin' : 'school_admin', id);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as CandidateDossier;
}

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  const signIns = await demoSignIns(t);
  tokens.admin = signIns.admin;
  tokens.school1 = signIns.school1;
  tokens.school2 = (await issueToken(db(), await userIdOf(t, 'school2@example.org'), 60)).token;
});
afterAll(() => t?.close());

/** The sections a candidate has rows in, by candidate: what the demo fills, found in SQL. */
const FILLED = sql`
  (exists (select 1 from files f where f.candidate_id = c.id and f.field is not null))::int
  + (exists (select 1 from registrations r where r.candidate_id = c.id))::int
  + (exists (select 1 from payment_items i where i.candidate_id = c.id))::int
  + (exists (select 1 from exam_offences o where o.candidate_id = c.id and o.removed_at is null))::int
  + (exists (select 1 from published_results p where p.candidate_id = c.id))::int`;

/** Each section's first candidate in the demo, and the candidate with the most sections filled. */
async function candidatesToCheck(): Promise<number[]> {
  const firsts = await rows<{ id: number }>(sql`
    select min(candidate_id) as id from files where field is not null and candidate_id is not null
    union all select min(candidate_id) from registrations
    union all select min(candidate_id) from payment_items where candidate_id is not null
    union all select min(candidate_id) from exam_offences where removed_at is null
    union all select min(candidate_id) from published_results`);
  const [fullest] = await rows<{ id: number; filled: number }>(
    sql`select c.id, ${FILLED} as filled from candidates c order by 2 desc, c.id limit 1`,
  );
  // The demo fills every section for some candidate, and at least four for one of them.
  expect(firsts.map((row) => row.id).every((id) => typeof id === 'number')).toBe(true);
  expect(fullest.filled).toBeGreaterThanOrEqual(4);
  return [...new Set([fullest.id, ...firsts.map((row) => row.id)])];
}

/** Whether the offenders list shows each offence as in force: the list's own word, read over HTTP. */
async function offencesInForce(): Promise<Map<number, boolean>> {
  const answer = await t.request('GET', `${OFFENDERS_LIST.path}?per_page=100`, { token: tokens.admin });
  expect(answer.status).toBe(200);
  const items = answer.body.data.items as OffenderRow[];
  return new Map(items.map((row) => [row.id, row.active]));
}

/** Every section of `record` against the database. */
async function expectAsStored(record: CandidateDossier, inForce: Map<number, boolean>) {
  const id = record.id;
  const [who] = await rows<Record<string, string | number | boolean | null>>(sql`
    select c.candidate_index, c.first_name, c.middle_name, c.last_name, c.gender, c.date_of_birth::text as dob,
      c.nationality, c.marital_status, c.candidate_category, c.year, c.verified, s.code as school,
      h.code as course_header, v.name as verifier
    from candidates c join training_schools s on s.id = c.training_school_id
      join course_headers h on h.id = c.course_header_id left join users v on v.id = c.verified_by
    where c.id = ${id}`);
  expect(record.candidate_index).toBe(who.candidate_index);
  expect(record.identity).toMatchObject({
    first_name: who.first_name,
    middle_name: who.middle_name,
    last_name: who.last_name,
    sex: who.gender,
    date_of_birth: who.dob,
    nationality: { code: who.nationality },
    marital_status: who.marital_status,
    category: who.candidate_category,
    school: { code: who.school },
    course_header: { code: who.course_header },
    year: who.year,
  });
  expect(record.documents.verification.verified).toBe(who.verified);
  expect(record.documents.verification.by).toBe(who.verified ? who.verifier : null);

  const stored = await rows<{ field: string; key: string }>(
    sql`select field, key from files where candidate_id = ${id} and field is not null`,
  );
  const keys = new Map(stored.map((row) => [row.field, row.key]));
  expect(record.documents.uploads.map((upload) => upload.field)).toEqual([...UPLOAD_FIELDS]);
  for (const upload of record.documents.uploads) {
    expect(upload.key, upload.field).toBe(keys.get(upload.field) ?? null);
    const own = { A4: 'fn_image_upload', B5: 'nd_certificate_upload' }[who.course_header as string];
    expect(upload.required, upload.field).toBe(upload.field === 'photo' || upload.field === own);
  }
  // The page shows the small print photo when one is made, else the original.
  expect(record.photo).toBe(keys.get(PRINT_PHOTO_FIELD) ?? keys.get('photo') ?? null);

  const registered = await rows<{ code: string; reg_status: string }>(sql`
    select d.code, r.reg_status from registrations r join diets d on d.id = r.diet_id
    where r.candidate_id = ${id} order by d.first_paper_on desc, d.id desc`);
  expect(record.registrations.map((row) => ({ code: row.diet.code, reg_status: row.reg_status }))).toEqual(
    registered,
  );

  const paid = await rows<{ reference: string; amount_kobo: number; status: string; credited: boolean }>(sql`
    select p.reference, i.amount_kobo, p.status, i.credited from payment_items i
    join payments p on p.id = i.payment_id where i.candidate_id = ${id} order by p.id desc`);
  expect(
    record.payments.map(({ reference, amount_kobo, status, credited }) => ({
      reference,
      amount_kobo,
      status,
      credited,
    })),
  ).toEqual(paid);

  const offences = await rows<{ id: number; offence: string }>(sql`
    select id, offence from exam_offences where candidate_id = ${id} and removed_at is null order by id desc`);
  expect(record.offences.map(({ id, offence }) => ({ id, offence }))).toEqual(offences);
  for (const offence of record.offences)
    expect(offence.in_force, offence.offence).toBe(inForce.get(offence.id));

  const results = await rows<{
    diet: string;
    course_header: string;
    outcome: string;
    withdrawn: boolean;
  }>(sql`
    select d.code as diet, h.code as course_header, p.outcome, (rp.withdrawn_at is not null) as withdrawn
    from published_results p
    join result_publications rp on rp.diet_id = p.diet_id and rp.course_header_id = p.course_header_id
    join diets d on d.id = p.diet_id join course_headers h on h.id = p.course_header_id
    where p.candidate_id = ${id} order by d.first_paper_on desc, d.id desc, h.code`);
  expect(
    record.results.map((row) => ({
      diet: row.diet.code,
      course_header: row.course_header,
      outcome: row.status === 'published' ? row.outcome : 'withdrawn',
    })),
  ).toEqual(
    results.map(({ diet, course_header, outcome, withdrawn }) => ({
      diet,
      course_header,
      outcome: withdrawn ? 'withdrawn' : outcome,
    })),
  );

  // The record sheet and the index form always; the photocard of the current diet once registered for it.
  const candidate = encodeURIComponent(record.candidate_index);
  const [current] = await rows<{ code: string; registered: boolean }>(sql`
    select d.code, exists (select 1 from registrations r where r.diet_id = d.id and r.candidate_id = ${id}
      and r.reg_status = 'registered') as registered from diets d where d.current`);
  expect(record.printable.map((doc) => doc.href)).toEqual([
    `/print-document/candidate-info?candidate=${candidate}`,
    `/print-document/candidate-index-form?candidate=${candidate}`,
    ...(current?.registered ? [`/print-document/photocard?diet=${current.code}&candidate=${candidate}`] : []),
  ]);
}

describe("a candidate's record, read by the board", () => {
  it('holds every section as the database does, for candidates the demo fills each section of', async () => {
    const inForce = await offencesInForce();
    const seen = { uploads: 0, registrations: 0, payments: 0, offences: 0, results: 0 };
    for (const id of await candidatesToCheck()) {
      const record = await dossierOf(id);
      await expectAsStored(record, inForce);
      seen.uploads += record.documents.uploads.filter((upload) => upload.key).length;
      seen.registrations += record.registrations.length;
      seen.payments += record.payments.length;
      seen.offences += record.offences.length;
      seen.results += record.results.length;
    }
    for (const [section, count] of Object.entries(seen)) expect(count, section).toBeGreaterThan(0);
  });

  it('shows sanctions in force and run out, as the offenders list does', async () => {
    const inForce = await offencesInForce();
    expect(new Set(inForce.values())).toEqual(new Set([true, false]));
    for (const [offenceId, active] of inForce) {
      const [{ id }] = await rows<{ id: number }>(
        sql`select candidate_id as id from exam_offences where id = ${offenceId}`,
      );
      const record = await dossierOf(id);
      expect(record.offences.find((row) => row.id === offenceId)?.in_force).toBe(active);
    }
  });

  it('shows the small print photo, which the reader may open, kept privately and asked about again', async () => {
    const [stored] = await rows<{ id: number; print_key: string; print_size: number }>(sql`
      select o.candidate_id as id, p.key as print_key, p.size as print_size
      from files o join files p on p.candidate_id = o.candidate_id and p.field = ${PRINT_PHOTO_FIELD}
      where o.field = 'photo' order by o.candidate_id limit 1`);
    expect(stored).toBeDefined();
    const record = await dossierOf(stored.id);
    expect(record.photo).toBe(stored.print_key);
    // The original stays among the uploads, for whoever wants it.
    expect(record.documents.uploads.find((upload) => upload.field === 'photo')?.key).not.toBe(record.photo);
    const photo = await fetchRaw(t, `/files/${record.photo}`, { Authorization: `Bearer ${tokens.admin}` });
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    expect(photo.headers.get('cache-control')).toBe('private, no-cache');
    const bytes = photo.bytes;
    expect(bytes.byteLength).toBe(stored.print_size);
    // The print photo: a JPEG of at most 240×300 (the demo's generated originals are tiny already, so
    // its size is no test of which it is; a real upload's original is up to 2 MB).
    const shape = await sharp(bytes).metadata();
    expect(shape.format).toBe('jpeg');
    expect(shape.width).toBeLessThanOrEqual(240);
    expect(shape.height).toBeLessThanOrEqual(300);
  });

  it('falls back to the original photo while its print photo is still to be made', async () => {
    // The last print photo set aside under another field for the moment, as if not made yet.
    const [print] = await rows<{ id: number; candidate_id: number }>(sql`
      update files set field = 'set_aside' where id = (select max(id) from files where field = ${PRINT_PHOTO_FIELD})
      returning id, candidate_id`);
    try {
      const [original] = await rows<{ key: string }>(
        sql`select key from files where candidate_id = ${print.candidate_id} and field = 'photo'`,
      );
      expect((await dossierOf(print.candidate_id)).photo).toBe(original.key);
    } finally {
      await db().execute(sql`update files set field = ${PRINT_PHOTO_FIELD} where id = ${print.id}`);
    }
  });

  it('reads each section in one query at most', async () => {
    const [{ id }] = await rows<{ id: number }>(
      sql`select c.id from candidates c order by ${FILLED} desc, c.id limit 1`,
    );
    const counted = countingQueries(db());
    try {
      await candidateDossier(db(), { role: 'admin', scope: { kind: 'board' } }, id, boardToday());
    } finally {
      counted.stop();
    }
    // The candidate (with the current diet), then uploads, registrations, payments, offences, results.
    expect(counted.queries).toBe(6);
  });
});

/** Counts the statements Drizzle prepares on `database`'s session until stopped. */
function countingQueries(database: Database) {
  const session = (database as unknown as { session: { prepareQuery: (...args: unknown[]) => unknown } })
    .session;
  const own = Object.prototype.hasOwnProperty.call(session, 'prepareQuery');
  const original = session.prepareQuery;
  const counted = { queries: 0, stop: () => {} };
  session.prepareQuery = function (this: unknown, ...args: unknown[]) {
    counted.queries += 1;
    return original.apply(this, args);
  };
  counted.stop = () => {
    if (own) session.prepareQuery = original;
    else delete (session as { prepareQuery?: unknown }).prepareQuery;
  };
  return counted;
}

describe('the record page and the printed record', () => {
  it('show the same payments, offences and results, diet by diet, for a candidate who has all three', async () => {
    // The demo's few offenders (server/demo/listed.ts) have no payment and result both; when none has,
    // the board records an offence over its own endpoint against one who has paid and has results.
    const [chosen] = await rows<{ id: number }>(sql`
      select c.id from candidates c
      where exists (select 1 from payment_items i where i.candidate_id = c.id)
        and exists (select 1 from published_results p where p.candidate_id = c.id)
      order by exists (select 1 from exam_offences o where o.candidate_id = c.id and o.removed_at is null) desc,
        c.id
      limit 1`);
    expect(chosen).toBeDefined();
    let recorded: number | null = null;
    const before = await dossierOf(chosen.id);
    if (!before.offences.length) {
      const answer = await t.request('POST', OFFENDER_ENDPOINTS.record.path, {
        token: tokens.admin,
        json: {
          candidate_index: before.candidate_index,
          diet: before.results[0].diet.code,
          offence: 'Collusion with another candidate',
          sanction: 'Result of the paper cancelled',
          sanction_from: boardToday(),
        },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      recorded = (answer.body.data as OffenderRow).id;
    }
    onTestFinished(async () => {
      if (recorded === null) return;
      const removed = await t.request('POST', fillPath(OFFENDER_ENDPOINTS.remove.path, { id: recorded }), {
        token: tokens.admin,
      });
      expect(removed.status).toBe(200);
    });
    const record = await dossierOf(chosen.id);
    expect(record.payments.length * record.offences.length * record.results.length).toBeGreaterThan(0);

    const path = fillPath(DOCUMENT_ENDPOINTS.print.admin.path, { ending: 'candidate-info' });
    const printed = await t.request(
      'GET',
      `${path}?${new URLSearchParams({ candidate: record.candidate_index })}`,
      {
        token: tokens.admin,
      },
    );
    expect(printed.status, JSON.stringify(printed.body)).toBe(200);
    const paper = printed.body.data as PrintedDocument;
    /** The rows of each of the paper's tables whose title starts with `prefix`, by the diet ending it. */
    const tables = (prefix: string) =>
      Object.fromEntries(
        paper.blocks.flatMap((block) =>
          block.kind === 'table' && block.title?.startsWith(prefix)
            ? [[block.title.slice(prefix.length), block.rows]]
            : [],
        ),
      );
    /** The page's rows grouped by diet, oldest row first as the paper lists them. */
    const byDiet = <T>(
      items: T[],
      dietOf: (item: T) => string,
      cells: (item: T) => string[],
      reverse: boolean,
    ) => {
      const grouped: Record<string, string[][]> = {};
      for (const item of reverse ? items.toReversed() : items)
        (grouped[dietOf(item)] ??= []).push(cells(item));
      return grouped;
    };

    expect(tables('Payments, ')).toEqual(
      byDiet(
        record.payments,
        (row) => row.fee.diet,
        (row) => [
          `${row.fee.title} (${FEE_KIND_LABELS[row.fee.kind]})`,
          row.reference,
          formatNaira(row.amount_kobo),
          formatDateTime(row.date),
          PAYMENT_STATUS_LABELS[row.status],
        ],
        true,
      ),
    );
    expect(tables('Offences at ')).toEqual(
      byDiet(
        record.offences,
        (row) => row.diet.code,
        (row) => [row.offence, row.sanction, row.term],
        true,
      ),
    );
    expect(tables('Results, ')).toEqual(
      byDiet(
        record.results,
        (row) => row.diet.code,
        (row) => resultCells(row),
        false,
      ),
    );
    // And each diet the page registers the candidate for, the paper says so.
    for (const row of record.registrations) {
      const fields = paper.blocks.find(
        (block) => block.kind === 'fields' && block.title === `${row.diet.name} (${row.diet.code})`,
      );
      expect(fields?.kind === 'fields' && fields.fields[0]).toEqual({
        label: 'Registration',
        value: row.reg_status === 'registered' ? 'Registered' : 'Unregistered',
      });
    }
  });
});

describe("a school admin's reading", () => {
  const firstOf = async (school: string) => {
    const schoolId = await schoolIdOf(t, school);
    const [{ id }] = await rows<{ id: number }>(
      sql`select c.id from candidates c where c.training_school_id = ${schoolId} order by ${FILLED} desc, c.id limit 1`,
    );
    return id;
  };

  it("reads their own school's candidate as the board does", async () => {
    const id = await firstOf('SHT-IB');
    const own = await dossierOf(id, 'school1');
    expect(own.identity.school.code).toBe('SHT-IB');
    expect(own).toEqual(await dossierOf(id, 'admin'));
  });

  it("gets another school's candidate as the same 404 as an unknown id", async () => {
    const other = await firstOf('CHT-CA');
    const [{ max }] = await rows<{ max: number }>(sql`select max(id) as max from candidates`);
    const notFound = { success: false, message: O.notFound };
    for (const id of [other, max + 1000]) {
      const answer = await read('school1', 'school_admin', id);
      expect(answer.status, String(id)).toBe(404);
      expect(answer.body).toEqual(notFound);
    }
    // And the other way round: school2 (CHT-CA) cannot read SHT-IB's.
    const answer = await read('school2', 'school_admin', await firstOf('SHT-IB'));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(notFound);
    expect((await read('school2', 'school_admin', other)).status).toBe(200);
  });

  it("cannot use the board's address", async () => {
    const answer = await read('school1', 'admin', await firstOf('SHT-IB'));
    expect(answer.status).toBe(403);
  });
});

describe('hostile ids', () => {
  const HOSTILE = [
    '0',
    '-1',
    'abc',
    '1.5',
    '1e3',
    '0x10',
    '00001',
    '2147483648',
    '99999999999999999999',
    "1'%20or%20'1'='1",
    '1;select%20pg_sleep(1)',
    '%00',
    '%2e%2e',
    'NaN',
    '%201',
  ];
  it.each(HOSTILE)('%s is a refusal for both roles, never a failure', async (id) => {
    for (const [who, role] of [
      ['admin', 'admin'],
      ['school1', 'school_admin'],
    ] as const) {
      const answer = await read(who, role, id);
      expect([404, 422], `${role} ${id}: ${answer.status}`).toContain(answer.status);
      expect(answer.body.success).toBe(false);
    }
  });
});

describe('withdrawn results', () => {
  it('are shown as withdrawn, without their marks, to the board and the school', async () => {
    const [pair] = await rows<{ diet: string; course_header: string; id: number; school: string }>(sql`
      select d.code as diet, h.code as course_header, p.candidate_id as id, s.code as school
      from published_results p join result_publications rp
        on rp.diet_id = p.diet_id and rp.course_header_id = p.course_header_id and rp.withdrawn_at is null
      join diets d on d.id = p.diet_id join course_headers h on h.id = p.course_header_id
      join training_schools s on s.id = p.training_school_id
      order by (s.code = 'SHT-IB') desc, p.id limit 1`);
    expect(pair).toBeDefined();
    const before = await dossierOf(pair.id);
    expect(before.results.find((row) => row.diet.code === pair.diet)?.status).toBe('published');

    const withdrawn = await t.request('POST', SCORE_ENDPOINTS.withdraw.path, {
      token: tokens.admin,
      json: {
        diet: pair.diet,
        course_header: pair.course_header,
        reason: 'A marking error is being checked',
      },
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);

    const after = await dossierOf(pair.id);
    const row = after.results.find((result) => result.diet.code === pair.diet);
    expect(row).toMatchObject({ status: 'withdrawn', course_header: pair.course_header });
    expect(row).not.toHaveProperty('final_mark');
    expect(row).not.toHaveProperty('outcome');
    if (pair.school === 'SHT-IB') expect(await dossierOf(pair.id, 'school1')).toEqual(after);
  });
});
