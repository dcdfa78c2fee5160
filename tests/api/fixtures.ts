import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { formatCandidateIndex } from '../../contract/candidates';
import { fillPath } from '../../contract/endpoint';
import { PAYMENT_ENDPOINTS } from '../../contract/payments.endpoints';
import { hashPassword } from '../../server/secrets';
import { issueToken } from '../../server/auth/tokens';
import {
  auditLog,
  candidates,
  courseHeaders,
  diets,
  payments,
  registrations,
  trainingSchools,
  users,
} from '../../server/db/schema';
import { DEMO_PASSWORD } from '../../server/demo';
import { SANDBOX_PREFIX } from '../../server/payments/provider';
import type { TestPortal } from './portal';
import { VALID_CANDIDATE } from '../fixtures/candidate';

export { VALID_CANDIDATE };

/** Small real files, and fakes, for the upload tests. */

/** A 1x1 PNG. */
export const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A 1x1 JPEG. */
export const JPEG = new Uint8Array(
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////' +
      '////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
);

/** A PNG padded with zeros to exactly `size` bytes: still a PNG by its magic bytes. */
export function pngOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return bytes;
}

export const text = (value: string) => new TextEncoder().encode(value);

/** A multipart form, as the SPA's profile dialog sends it. */
export function profileForm(
  fields: Record<string, string>,
  photo?: { bytes: Uint8Array; name?: string; type?: string },
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (photo) {
    const blob = new Blob([photo.bytes as Uint8Array<ArrayBuffer>], { type: photo.type ?? 'image/png' });
    form.append('photo', blob, photo.name ?? 'photo.png');
  }
  return form;
}

export async function userIdOf(t: TestPortal, email: string): Promise<number> {
  const [row] = await t.portal.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`No user ${email}`);
  return row.id;
}

/** The demo's board admin and SHT-IB school admin, signed in for an hour. */
export async function demoSignIns(t: TestPortal) {
  const db = t.portal.database.db;
  const adminId = await userIdOf(t, 'admin@example.org');
  return {
    adminId,
    admin: (await issueToken(db, adminId, 60)).token,
    school1: (await issueToken(db, await userIdOf(t, 'school1@example.org'), 60)).token,
  };
}

export async function schoolIdOf(t: TestPortal, code: string): Promise<number> {
  const db = t.portal.database.db;
  const [row] = await db
    .select({ id: trainingSchools.id })
    .from(trainingSchools)
    .where(eq(trainingSchools.code, code));
  if (!row) throw new Error(`No school ${code}`);
  return row.id;
}

/** The newest audit entry of `action` on the entity `entityId`. */
export async function lastAudit(t: TestPortal, action: string, entityId: number) {
  const [row] = await t.portal.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

/** Another user beside the demo's three, with the demo password. */
export async function addUser(
  t: TestPortal,
  user: { email: string; name: string; role: 'admin' | 'school_admin'; trainingSchoolId?: number | null },
): Promise<number> {
  const [row] = await t.portal.database.db
    .insert(users)
    .values({ ...user, passwordHash: await hashPassword(DEMO_PASSWORD) })
    .returning({ id: users.id });
  return row.id;
}

/** The raw bytes and headers of a GET, for files (the harness reads bodies as text). */
export async function fetchRaw(t: TestPortal, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(t.url + path, { headers });
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

/** A 1x1 lossless WebP. */
export const WEBP = new Uint8Array(Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64'));

/** A 1x1 GIF: an image, but not one the candidate form takes. */
export const GIF = new Uint8Array(
  Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64'),
);

/** A minimal real PDF: one empty page. */
export const PDF = text(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/MediaBox[0 0 3 3]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

export interface FilePart {
  bytes: Uint8Array;
  name?: string;
  type?: string;
}

/**
 * The candidate form as the SPA sends it (multipart): text fields, then files. A field given as
 * undefined is left out; the photo is a PNG unless `files` says otherwise.
 */
export function candidateForm(
  fields: Record<string, string | undefined> = {},
  files: Record<string, FilePart | undefined> = { photo: { bytes: PNG } },
  base: Readonly<Record<string, string>> = VALID_CANDIDATE,
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...base, ...fields })) {
    if (value !== undefined) form.append(name, value);
  }
  for (const [name, file] of Object.entries(files)) {
    if (!file) continue;
    const blob = new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'image/png' });
    form.append(name, blob, file.name ?? `${name}.png`);
  }
  return form;
}

let people = 0;
/** A first name no other test has used (letters only, so every rule takes it): keeps the duplicate rule
 * out of tests that are not about it. */
export function uniqueFirstName(prefix = 'Ada'): string {
  let n = people++;
  let suffix = '';
  do {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26);
  } while (n > 0);
  return `${prefix}${suffix}`;
}

/** The files under DATA_DIR/uploads/<folder>, without the `.type` files beside them. */
export function storedUploads(t: TestPortal, folder = 'candidates'): string[] {
  const dir = path.join(t.dataDir, 'uploads', folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => !name.endsWith('.type') && !name.endsWith('.partial'))
    .sort();
}

export interface SeededCandidate {
  first_name: string;
  last_name: string;
  middle_name?: string | null;
  school: string;
  course_header: string;
  year?: number;
  reg_status?: 'unregistered' | 'registered';
  verified?: boolean;
  date_of_birth?: string;
}

/**
 * Candidates written straight to the database, for the tests of lists and registration, which are about
 * reading and changing rows rather than the form. Each gets the next index number from the sequence.
 */
export async function seedCandidates(t: TestPortal, rows: SeededCandidate[]): Promise<number[]> {
  const db = t.portal.database.db;
  const [schools, headers] = await Promise.all([
    db.select({ id: trainingSchools.id, code: trainingSchools.code }).from(trainingSchools),
    db.select({ id: courseHeaders.id, code: courseHeaders.code }).from(courseHeaders),
  ]);
  const createdBy = await userIdOf(t, 'admin@example.org');
  const ids: number[] = [];
  for (const [n, row] of rows.entries()) {
    const { rows: next } = (await db.execute(sql`select nextval('candidate_index_seq') as n`)) as unknown as {
      rows: { n: string | number }[];
    };
    const year = row.year ?? 2026;
    const [inserted] = await db
      .insert(candidates)
      .values({
        candidateIndex: formatCandidateIndex(year, row.course_header, Number(next[0].n)),
        trainingSchoolId: schools.find((s) => s.code === row.school)!.id,
        courseHeaderId: headers.find((h) => h.code === row.course_header)!.id,
        year,
        first_name: row.first_name,
        last_name: row.last_name,
        middle_name: row.middle_name ?? null,
        date_of_birth: row.date_of_birth ?? `1990-01-${String((n % 28) + 1).padStart(2, '0')}`,
        candidate_category: 'fresh',
        marital_status: 'S',
        gender: 'female',
        nationality: 'NG',
        verified: row.verified ?? false,
        createdBy,
      })
      .returning({ id: candidates.id });
    if (row.reg_status === 'registered') await writeRegStatus(t, inserted.id, 'registered');
    ids.push(inserted.id);
  }
  return ids;
}

/** The diet current for registration (the sign-ins seed makes one, open for weeks). */
export async function currentDietOf(t: TestPortal) {
  const [row] = await t.portal.database.db.select().from(diets).where(eq(diets.current, true));
  return row;
}

/** A candidate's registration for a diet (unless given, the current one), written straight to the table. */
export async function writeRegStatus(
  t: TestPortal,
  candidateId: number,
  regStatus: 'registered' | 'unregistered',
  dietId?: number,
) {
  const diet = dietId ?? (await currentDietOf(t)).id;
  await t.portal.database.db
    .insert(registrations)
    .values({ dietId: diet, candidateId, regStatus })
    .onConflictDoUpdate({ target: [registrations.dietId, registrations.candidateId], set: { regStatus } });
}

/**
 * `count` verified A1 candidates of a school (SHT-IB unless given), registered for a diet (the current one
 * unless given): the candidates a school pays a registration fee for. Named `first_name` and `lastName(i)`.
 */
export async function seedPayers(
  t: TestPortal,
  count: number,
  first_name: string,
  lastName: (i: number) => string,
  { school = 'SHT-IB', dietId }: { school?: string; dietId?: number } = {},
): Promise<number[]> {
  const ids = await seedCandidates(
    t,
    Array.from({ length: count }, (_, i) => ({
      first_name,
      last_name: lastName(i),
      school,
      course_header: 'A1',
      verified: true,
    })),
  );
  for (const id of ids) await writeRegStatus(t, id, 'registered', dietId);
  return ids;
}

/**
 * A fee the board admin (`token`) adds through the API: unless `fields` say otherwise, a NGN 15,000
 * registration fee a candidate for the current diet. Answers its id; a refusal fails the test.
 */
export async function addFee(
  t: TestPortal,
  token: string,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const response = await t.request('POST', PAYMENT_ENDPOINTS.createFee.path, {
    token,
    json: {
      title: 'Registration fee',
      kind: 'registration',
      basis: 'candidate',
      amount: '15,000',
      diet: (await currentDietOf(t)).code,
      ...fields,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data.id as number;
}

/** A payment's row, by its reference. */
export async function paymentOf(t: TestPortal, reference: string) {
  const [row] = await t.portal.database.db.select().from(payments).where(eq(payments.reference, reference));
  return row;
}

/** How many times a payment was credited, as the audit log says: once, however often it was settled. */
export async function creditAudits(t: TestPortal, reference: string): Promise<number> {
  const payment = await paymentOf(t, reference);
  const rows = await t.portal.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'payment.credited'), eq(auditLog.entityId, String(payment.id))));
  return rows.length;
}

/** Reads until `done` holds or `within` ms have passed, and answers the last read (for what a job does). */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  within = 20_000,
): Promise<T> {
  const end = Date.now() + within;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An address of the sandbox provider this portal serves (its API and its checkout page). */
export const sandboxUrl = (t: TestPortal, path: string) => `${t.url}${SANDBOX_PREFIX}${path}`;

/** The payer's choice on the sandbox's checkout page, posted as its buttons post it. */
export const sandboxCheckout = (
  t: TestPortal,
  accessCode: string,
  choice: 'pay' | 'decline' | 'pending' | 'abandon',
) => fetch(sandboxUrl(t, `/checkout/${accessCode}/${choice}`), { method: 'POST' });

/** The school admin's browser asking the portal to verify a payment, as it does back from the checkout. */
export const schoolVerifies = (t: TestPortal, token: string, reference: string) =>
  t.request('POST', fillPath(PAYMENT_ENDPOINTS.verify.school_admin.path, { reference }), { token });

/** A candidate's registration for a diet (unless given, the current one), as the table holds it. */
export async function regStatusOf(t: TestPortal, candidateId: number, dietId?: number) {
  const diet = dietId ?? (await currentDietOf(t)).id;
  const [row] = await t.portal.database.db
    .select({ regStatus: registrations.regStatus })
    .from(registrations)
    .where(and(eq(registrations.dietId, diet), eq(registrations.candidateId, candidateId)));
  return row?.regStatus ?? 'unregistered';
}

/** A seeded candidate's index number: what the exam offenders and resit candidates lists are added by. */
export async function candidateIndexOf(t: TestPortal, id: number): Promise<string> {
  const [row] = await t.portal.database.db
    .select({ index: candidates.candidateIndex })
    .from(candidates)
    .where(eq(candidates.id, id));
  return row.index;
}

/** A list's page with no rows (a scope that holds none, or a page past the end), as the API answers it. */
export const emptyPage = (page = 1, total = 0) => ({
  items: [],
  page,
  per_page: 20,
  total,
  total_exact: true,
  has_more: false,
  next_cursor: null,
  prev_cursor: null,
});
