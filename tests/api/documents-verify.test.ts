import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOCUMENT_MESSAGES as M,
  type PrintedDocument,
  type VerifiedDocument,
} from '../../contract/documents';
import { DOCUMENT_ENDPOINTS as E } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { PAYMENT_STATUS_LABELS } from '../../contract/payments';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { clearBucket } from '../../server/auth/throttle';
import { candidates, documentPrints, payments } from '../../server/db/schema';
import { codeKey, makeCode, readCode } from '../../server/documents/codes';
import { VERIFY_LIMIT } from '../../server/routes/documents';
import {
  addFee,
  currentDietOf,
  demoSignIns,
  sandboxCheckout,
  schoolVerifies,
  seedCandidates,
  seedPayers,
  writeRegStatus,
} from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Verification of printed codes over HTTP, with no sign-in: a print's code answers 'genuine' until
 * what it certified changes, then 'changed' with what changed; a code the portal did not make is a 404
 * whatever its shape; the check is rate-limited per address even under a burst; payment receipts too.
 */

let t: TestPortal;
let admin: string;
let school1: string;
let dietCode: string;
const db = () => t.portal.database.db;

const verify = (code: string) =>
  t.request('GET', fillPath(E.verify.path, { code: encodeURIComponent(code) }));

async function printed(ending: string, query: Record<string, string> = {}): Promise<PrintedDocument> {
  const response = await t.request(
    'GET',
    `${fillPath(E.print.admin.path, { ending })}?${new URLSearchParams(query)}`,
    { token: admin },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

async function verified(code: string): Promise<VerifiedDocument> {
  const response = await verify(code);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

beforeAll(async () => {
  t = await startTestPortal();
  ({ admin, school1 } = await demoSignIns(t));
  dietCode = (await currentDietOf(t)).code;
  await seedCandidates(t, [
    { first_name: 'Chidi', last_name: 'Eze', school: 'SHT-IB', course_header: 'A1', verified: true },
    { first_name: 'Ngozi', last_name: 'Obi', school: 'SHT-IB', course_header: 'A1' },
    {
      first_name: 'Musa',
      last_name: 'Bello',
      school: 'CHT-CA',
      course_header: 'A1',
      year: 2025,
      verified: true,
    },
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('codes', () => {
  it('name a print and a row under a tag, and are read back however they are typed', async () => {
    const key = await codeKey(db());
    const code = makeCode(key, { printId: 1234, row: 56 });
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{1,4})+$/);
    expect(readCode(key, code)).toEqual({ printId: 1234, row: 56 });
    expect(readCode(key, code.toLowerCase().replace(/-/g, ' '))).toEqual({ printId: 1234, row: 56 });
    const confused = code.replace(/0/g, 'O').replace(/1/g, 'l');
    expect(readCode(key, confused)).toEqual({ printId: 1234, row: 56 });
    // The first print's code is four groups: 2 bytes of numbers and 8 of tag.
    expect(makeCode(key, { printId: 1, row: 0 })).toMatch(/^\w{4}-\w{4}-\w{4}-\w{4}$/);
  });

  it('refuse any character changed, any dropped, and another key', async () => {
    const key = await codeKey(db());
    const code = makeCode(key, { printId: 77, row: 3 }).replace(/-/g, '');
    for (let i = 0; i < code.length; i += 1) {
      const other = code[i] === 'A' ? 'B' : 'A';
      expect(readCode(key, code.slice(0, i) + other + code.slice(i + 1)), `position ${i}`).toBeNull();
      expect(readCode(key, code.slice(0, i) + code.slice(i + 1)), `without ${i}`).toBeNull();
    }
    expect(readCode(Buffer.from('another key'), code)).toBeNull();
    for (const junk of ['', '-', 'U', 'Ü', '0'.repeat(49), '💥', '../../x'])
      expect(readCode(key, junk)).toBeNull();
  });
});

describe('a printed statistics document', () => {
  it('is genuine until a candidate is indexed, then says what changed', async () => {
    const document = await printed('course-index-stats');
    const first = await verified(document.verification.code);
    expect(first).toMatchObject({
      status: 'genuine',
      title: document.title,
      printedAt: document.printedAt,
      printedBy: document.printedBy,
      heading: document.heading,
      changes: [],
    });
    expect(first.certified).toEqual([
      { label: 'Candidates indexed', value: '3' },
      { label: 'Verified', value: '2' },
      { label: 'Not verified', value: '1' },
    ]);
    // As typed by hand from the paper: lower case, no hyphens.
    expect((await verified(document.verification.code.toLowerCase().replace(/-/g, ''))).status).toBe(
      'genuine',
    );

    await seedCandidates(t, [
      { first_name: 'Emeka', last_name: 'Nwosu', school: 'SHT-IB', course_header: 'A1' },
    ]);
    const after = await verified(document.verification.code);
    expect(after.status).toBe('changed');
    expect(after.changes).toEqual([
      'Candidates indexed: was 3, now 4',
      'Not verified: was 1, now 2',
      'A1 2026: Indexed: was 2, now 3; Not verified: was 1, now 2',
    ]);
    // What it certified is still what was printed.
    expect(after.certified).toEqual(first.certified);
  });

  it('of registrations turns changed when a candidate is registered, and names a row no longer there', async () => {
    const document = await printed('course-reg-stats', { diet: dietCode });
    expect((await verified(document.verification.code)).status).toBe('genuine');
    const [id] = await seedCandidates(t, [
      { first_name: 'Halima', last_name: 'Sani', school: 'CHT-CA', course_header: 'A1', verified: true },
    ]);
    await writeRegStatus(t, id, 'registered');
    const after = await verified(document.verification.code);
    expect(after.status).toBe('changed');
    expect(after.changes).toContain('Registered: was 0, now 1');
    expect(after.changes).toContain('A1: Registered: was 0, now 1');
  });
});

describe('a photocard', () => {
  it("has its own code, which turns changed when the candidate's surname is corrected", async () => {
    const [id] = await seedCandidates(t, [
      {
        first_name: 'Adébáyọ̀',
        last_name: 'Ọlábísí',
        school: 'SHT-IB',
        course_header: 'A1',
        verified: true,
        reg_status: 'registered',
      },
    ]);
    const [{ index }] = await db()
      .select({ index: candidates.candidateIndex })
      .from(candidates)
      .where(eq(candidates.id, id));
    const document = await printed('photocard', { diet: dietCode, candidate: index });
    const block = document.blocks.find((b) => b.kind === 'cards');
    expect(block?.kind).toBe('cards');
    const [card] = block!.kind === 'cards' ? block!.cards : [];
    expect(card.candidateIndex).toBe(index);
    expect(card.verification.code).not.toBe(document.verification.code);
    const first = await verified(card.verification.code);
    expect(first.status).toBe('genuine');
    expect(first.certified).toContainEqual({ label: 'Surname', value: 'ỌLÁBÍSÍ' });

    await db().update(candidates).set({ last_name: 'Olabisi' }).where(eq(candidates.id, id));
    const after = await verified(card.verification.code);
    expect(after.status).toBe('changed');
    expect(after.changes).toEqual(['Surname: was ỌLÁBÍSÍ, now OLABISI']);
    // The whole document's code says which card changed.
    const whole = await verified(document.verification.code);
    expect(whole.changes).toEqual([`${index}: Surname: was ỌLÁBÍSÍ, now OLABISI`]);
  });
});

describe('codes the portal did not make', () => {
  it('are a 404 with the same sentence, whether forged, tampered or of no print', async () => {
    const document = await printed('course-index-stats');
    const code = document.verification.code;
    const last = code.at(-1) === 'A' ? 'B' : 'A';
    const key = await codeKey(db());
    for (const bad of [
      code.slice(0, -1) + last,
      'K7QD-2M4X-9PZT-0000',
      'not a code',
      // Signed by the portal's own key, but no such print.
      makeCode(key, { printId: 99_999_999, row: 0 }),
      // A row the print does not have.
      makeCode(key, { printId: Number(readCode(key, code)!.printId), row: 999_999 }),
    ]) {
      const response = await verify(bad);
      expect(response.status, bad).toBe(404);
      expect(response.body.message).toBe(M.codeUnknown);
    }
  });
});

describe("a payment's receipt", () => {
  it('carries a code that verifies what it says, and turns changed when the payment goes to review', async () => {
    const fee = await addFee(t, admin);
    const [candidate] = await seedPayers(t, 1, 'Receipt', () => 'Payer');
    const start = await t.request('POST', PAYMENT_ENDPOINTS.start.path, {
      token: school1,
      json: { fee_id: fee, candidate_ids: [candidate] },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const { reference, access_code } = start.body.data;
    await sandboxCheckout(t, access_code, 'pay');
    const settled = await schoolVerifies(t, school1, reference);
    expect(settled.body.data.status).toBe('paid');

    const receiptPath = fillPath(PAYMENT_ENDPOINTS.payment.school_admin.path, { reference });
    const receipt = (await t.request('GET', receiptPath, { token: school1 })).body.data;
    expect(receipt.verification.code).toBe(settled.body.data.verification.code);
    const shown = await verified(receipt.verification.code);
    expect(shown).toMatchObject({ status: 'genuine', title: 'Payment receipt', changes: [] });
    expect(shown.certified).toEqual(
      expect.arrayContaining([
        { label: 'Reference', value: reference },
        { label: 'Status', value: PAYMENT_STATUS_LABELS.paid },
        { label: 'Candidates', value: '1' },
      ]),
    );
    // The board's view of the same receipt shows the same code.
    const board = await t.request('GET', fillPath(PAYMENT_ENDPOINTS.payment.admin.path, { reference }), {
      token: admin,
    });
    expect(board.body.data.verification.code).toBe(receipt.verification.code);

    await db().update(payments).set({ status: 'review' }).where(eq(payments.reference, reference));
    const changed = await verified(receipt.verification.code);
    expect(changed.status).toBe('changed');
    expect(changed.changes).toEqual([
      `Status: was ${PAYMENT_STATUS_LABELS.paid}, now ${PAYMENT_STATUS_LABELS.review}`,
    ]);
    // Shown again, the receipt gets a new code for what it says now: one print, however many show it at once.
    const shownAgain = await Promise.all(
      Array.from({ length: 10 }, () => t.request('GET', receiptPath, { token: school1 })),
    );
    expect(new Set(shownAgain.map((answer) => answer.body.data.verification.code)).size).toBe(1);
    const again = shownAgain[0].body.data;
    expect(again.verification.code).not.toBe(receipt.verification.code);
    const prints = await db()
      .select({ id: documentPrints.id })
      .from(documentPrints)
      .where(eq(documentPrints.paymentId, receipt.id));
    expect(prints).toHaveLength(2);
    expect((await verified(again.verification.code)).status).toBe('genuine');
  });
});

describe('the rate limit', () => {
  it('holds under 100 parallel checks from one address, with the sentence to wait', async () => {
    const document = await printed('course-index-stats');
    await clearBucket(db(), 'verify:ip:127.0.0.1');
    const answers = await Promise.all(Array.from({ length: 100 }, () => verify(document.verification.code)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(VERIFY_LIMIT.max);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100 - VERIFY_LIMIT.max);
    expect(answers.find((answer) => answer.status === 429)!.body.message).toBe(M.tooManyChecks);
    // Forged codes count the same: still refused before anything is read.
    expect((await verify('K7QD-2M4X-9PZT-0000')).status).toBe(429);
    await clearBucket(db(), 'verify:ip:127.0.0.1');
  });
});
