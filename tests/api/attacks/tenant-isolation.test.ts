import { eq, inArray, ne } from 'drizzle-orm';
import { CANDIDATE_ENDPOINTS } from '../../../contract/candidates.endpoints';
import { REGISTRATION_ENDPOINTS } from '../../../contract/registration.endpoints';
import { fillPath } from '../../../contract/endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidates, files, resits } from '../../../server/db/schema';
import { demoSignIns, fetchRaw, regStatusOf, schoolIdOf } from '../fixtures';
import { startTestPortal, type TestPortal } from '../portal';

/**
 * Attack class: tenant isolation. A school admin reaches only their own school's candidates, resit
 * entries and files, whatever id or filter they send; another school's row is a 404, as if it did not
 * exist, so ids cannot even be probed. (Each area's own tests hold the full cases.)
 */

let t: TestPortal;
let school1: string;
let otherCandidate: number;
let ownSchool: number;
const db = () => t.portal.database.db;

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  ({ school1 } = await demoSignIns(t));
  ownSchool = await schoolIdOf(t, 'SHT-IB');
  const [other] = await db()
    .select({ id: candidates.id })
    .from(candidates)
    .where(ne(candidates.trainingSchoolId, ownSchool))
    .limit(1);
  otherCandidate = other.id;
});
afterAll(() => t?.close());

describe('tenant isolation', () => {
  it("lists only the caller's school: another school's filter changes nothing, and the CSV holds only its own", async () => {
    const otherSchool = await schoolIdOf(t, 'CHT-CA');
    const filtered = await t.request(
      'GET',
      `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?school=${otherSchool}`,
      { token: school1 },
    );
    // The school filter is the board's: a school admin's list ignores it and stays their own school's.
    expect(filtered.status).toBe(200);
    const ids = (filtered.body.data.items as { id: number }[]).map((row) => row.id);
    expect(ids.length).toBeGreaterThan(0);
    const schools = await db()
      .selectDistinct({ school: candidates.trainingSchoolId })
      .from(candidates)
      .where(inArray(candidates.id, ids));
    expect(schools).toEqual([{ school: ownSchool }]);

    const csv = await t.request('GET', `${REGISTRATION_ENDPOINTS.registered.school_admin.path}?format=csv`, {
      token: school1,
    });
    expect(csv.status).toBe(200);
    const indexesOf = async (own: boolean) =>
      (
        await db()
          .select({ index: candidates.candidateIndex })
          .from(candidates)
          .where(
            own ? eq(candidates.trainingSchoolId, ownSchool) : ne(candidates.trainingSchoolId, ownSchool),
          )
      ).flatMap((row) => (row.index ? [row.index] : []));
    const own = await indexesOf(true);
    expect(own.length).toBeGreaterThan(0);
    for (const index of own) expect(csv.body).toContain(index);
    for (const index of await indexesOf(false)) expect(csv.body).not.toContain(index);
  });

  it("refuses to change another school's candidate, as if it did not exist", async () => {
    const before = await regStatusOf(t, otherCandidate);
    const response = await t.request(
      'POST',
      fillPath(CANDIDATE_ENDPOINTS.regStatus.school_admin.path, { id: otherCandidate }),
      {
        token: school1,
        json: { reg_status: before === 'registered' ? 'unregistered' : 'registered' },
      },
    );
    expect(response.status).toBe(404);
    expect(await regStatusOf(t, otherCandidate)).toBe(before);
  });

  it("does not show another school's candidate's record, as if it did not exist", async () => {
    const path = (id: number) => fillPath(CANDIDATE_ENDPOINTS.record.school_admin.path, { id });
    const other = await t.request('GET', path(otherCandidate), { token: school1 });
    const unknown = await t.request('GET', path(2_000_000_000), { token: school1 });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(unknown.body);
  });

  it("refuses to remove another school's resit entry", async () => {
    const [entry] = await db()
      .select({ id: resits.id })
      .from(resits)
      .innerJoin(candidates, eq(candidates.id, resits.candidateId))
      .where(ne(candidates.trainingSchoolId, ownSchool))
      .limit(1);
    const response = await t.request(
      'POST',
      `/api/training-school-admin/resit-candidates/${entry.id}/remove`,
      {
        token: school1,
      },
    );
    expect(response.status).toBe(404);
    expect(await db().select({ id: resits.id }).from(resits).where(eq(resits.id, entry.id))).toHaveLength(1);
  });

  it("does not serve another school's candidate files", async () => {
    const [file] = await db()
      .select({ key: files.key })
      .from(files)
      .where(eq(files.candidateId, otherCandidate))
      .limit(1);
    const served = await fetchRaw(t, `/files/${file.key}`, { authorization: `Bearer ${school1}` });
    expect(served.status).toBe(404);
  });
});
