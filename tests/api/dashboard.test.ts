import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchoolBroadcast } from '../../contract/broadcasts';
import { BROADCAST_ENDPOINTS } from '../../contract/broadcasts.endpoints';
import type { ConversationSummary } from '../../contract/conversations';
import { CONVERSATION_ENDPOINTS } from '../../contract/conversations.endpoints';
import type { BoardDashboard, SchoolDashboard } from '../../contract/dashboard';
import { DASHBOARD_LINKS } from '../../contract/dashboard';
import { DASHBOARD_ENDPOINTS as E } from '../../contract/dashboard.endpoints';
import type { Page } from '../../contract/pagination';
import { CANDIDATE_ENDPOINTS } from '../../contract/candidates.endpoints';
import {
  PAYMENT_HISTORY_LISTS,
  PAYMENT_ISSUES_LIST,
  REGISTERED_LISTS,
  RESULTS_LISTS,
  SCHOOLS_LIST,
} from '../../contract/lists';
import { eq, not, sql } from 'drizzle-orm';
import { issueToken } from '../../server/auth/tokens';
import { refreshSummary } from '../../server/dashboard/summary';
import { candidates, dashboardSummaries, payments } from '../../server/db/schema';
import { demoSignIns, userIdOf } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * The Dashboard over HTTP on the living demo (PGlite, or PostgreSQL with DATABASE_URL): both roles, a
 * school admin's numbers are their school's, and each number equals the total of the list it links to
 * (the link's query sent to the list's endpoint).
 */

let t: TestPortal;
let tokens: Awaited<ReturnType<typeof demoSignIns>> & { school2: string };

beforeAll(async () => {
  t = await startTestPortal({}, { livingDemo: true });
  const school2 = await issueToken(t.portal.database.db, await userIdOf(t, 'school2@example.org'), 60);
  tokens = { ...(await demoSignIns(t)), school2: school2.token };
}, 120_000);
afterAll(() => t?.close());

const get = async <T>(route: string, token: string) => {
  const response = await t.request('GET', route, { token });
  expect(response.status, `${route}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body.data as T;
};
/** The total of the list behind a dashboard link: the link's query on the list's endpoint. */
const totalBehind = async (listPath: string, href: string, token: string) => {
  const query = href.includes('?') ? href.slice(href.indexOf('?')) : '';
  return (await get<Page<unknown>>(`${listPath}${query}`, token)).total;
};

describe("the board's dashboard", () => {
  let board: BoardDashboard;
  beforeAll(async () => {
    board = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
  });

  it('opens on the current diet, its window, and looks mid-year in the demo', () => {
    expect(board.diet).not.toBeNull();
    expect(board.window.diet?.code).toBe(board.diet!.code);
    expect(board.candidates.indexed).toBeGreaterThanOrEqual(300);
    expect(board.candidates.registered).toBeGreaterThan(0);
    // Registrations over several days, and a published diet's pass rates.
    expect(board.registrations_per_day.filter((d) => d.count > 0).length).toBeGreaterThanOrEqual(3);
    expect(board.pass_rates).not.toBeNull();
    expect(board.pass_rates!.schools.length).toBeGreaterThan(1);
    expect(board.candidates_per_course_header.some((h) => h.registered > 0)).toBe(true);
  });

  it('each count equals the total of the list it links to', async () => {
    const diet = board.diet!.code;
    const admin = tokens.admin;
    expect(await totalBehind(SCHOOLS_LIST.path, DASHBOARD_LINKS.schools('active').href, admin)).toBe(
      board.schools.active,
    );
    expect(await totalBehind(SCHOOLS_LIST.path, DASHBOARD_LINKS.schools('suspended').href, admin)).toBe(
      board.schools.suspended,
    );
    const candidates = CANDIDATE_ENDPOINTS.list.path;
    expect(await totalBehind(candidates, DASHBOARD_LINKS.indexed().href, admin)).toBe(
      board.candidates.indexed,
    );
    expect(await totalBehind(candidates, DASHBOARD_LINKS.verified().href, admin)).toBe(
      board.candidates.verified,
    );
    const registered = REGISTERED_LISTS.admin.path;
    expect(await totalBehind(registered, DASHBOARD_LINKS.registered(diet).href, admin)).toBe(
      board.candidates.registered,
    );
    expect(await totalBehind(registered, DASHBOARD_LINKS.fee(diet, 'paid').href, admin)).toBe(
      board.candidates.paid,
    );
    expect(await totalBehind(registered, DASHBOARD_LINKS.fee(diet, 'unpaid').href, admin)).toBe(
      board.candidates.unpaid,
    );
    expect(await totalBehind(PAYMENT_ISSUES_LIST.path, DASHBOARD_LINKS.reconciliation().href, admin)).toBe(
      board.reconciliation_open,
    );
    for (const header of board.candidates_per_course_header.slice(0, 3)) {
      expect(await totalBehind(registered, DASHBOARD_LINKS.registered(diet, header.code).href, admin)).toBe(
        header.registered,
      );
      expect(await totalBehind(candidates, DASHBOARD_LINKS.indexedInCourse(header.code).href, admin)).toBe(
        header.indexed,
      );
    }
    const rates = board.pass_rates!;
    const school = rates.schools[0];
    expect(
      await totalBehind(
        RESULTS_LISTS.admin.path,
        DASHBOARD_LINKS.results(rates.diet.code, school.code).href,
        admin,
      ),
    ).toBeGreaterThanOrEqual(school.results);
    const unread = await get<number>('/api/admin/count-unread-notification', admin);
    expect(board.unread_notifications).toBe(unread);
  });

  it('the sums hold: paid and unpaid are among the registered; the schools add up', () => {
    expect(board.candidates.paid + board.candidates.unpaid).toBeLessThanOrEqual(board.candidates.registered);
    expect(board.candidates.verified).toBeLessThanOrEqual(board.candidates.indexed);
    const registered = board.candidates_per_course_header.reduce((sum, h) => sum + h.registered, 0);
    expect(registered).toBe(board.candidates.registered);
    expect(board.registrations_per_day).toHaveLength(30);
  });
});

describe("a school admin's dashboard", () => {
  it("is their school's: its counts equal their own lists' totals, and differ from another school's", async () => {
    const one = await get<SchoolDashboard>(E.overview.school_admin.path, tokens.school1);
    const two = await get<SchoolDashboard>(E.overview.school_admin.path, tokens.school2);
    const board = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
    const diet = one.diet!.code;
    const list = REGISTERED_LISTS.school_admin.path;
    for (const [dashboard, token] of [
      [one, tokens.school1],
      [two, tokens.school2],
    ] as const) {
      const c = dashboard.candidates;
      expect(await totalBehind(list, '', token)).toBe(c.indexed);
      expect(await totalBehind(list, DASHBOARD_LINKS.schoolVerified(true).href, token)).toBe(c.verified);
      expect(await totalBehind(list, DASHBOARD_LINKS.schoolVerified(false).href, token)).toBe(c.unverified);
      expect(await totalBehind(list, DASHBOARD_LINKS.registered(diet).href, token)).toBe(c.registered);
      expect(await totalBehind(list, DASHBOARD_LINKS.unregistered(diet).href, token)).toBe(c.unregistered);
      expect(await totalBehind(list, DASHBOARD_LINKS.fee(diet, 'paid').href, token)).toBe(c.paid);
      expect(await totalBehind(list, DASHBOARD_LINKS.fee(diet, 'unpaid').href, token)).toBe(c.unpaid);
      expect(c.indexed).toBeLessThan(board.candidates.indexed);
    }
    expect(one.candidates.indexed + two.candidates.indexed).toBeLessThanOrEqual(board.candidates.indexed);
    expect(one.window.diet?.code).toBe(diet);
    // What the board asks of the school, as its own lists show it.
    const broadcasts = await get<SchoolBroadcast[]>(BROADCAST_ENDPOINTS.received.path, tokens.school1);
    expect(one.broadcasts_to_acknowledge).toBe(
      broadcasts.filter((b) => b.requires_acknowledgement && !b.acknowledged_at).length,
    );
    const talks = await get<ConversationSummary[]>(CONVERSATION_ENDPOINTS.schoolList.path, tokens.school1);
    expect(one.messages_with_board.unread_answers).toBe(talks.reduce((sum, t) => sum + t.unread_answers, 0));
    expect(one.messages_with_board.open).toBe(talks.filter((t) => t.last_from === 'school').length);
    if (one.results) {
      const total = await totalBehind(
        RESULTS_LISTS.school_admin.path,
        DASHBOARD_LINKS.schoolResults(one.results.diet.code).href,
        tokens.school1,
      );
      expect(total).toBe(one.results.results);
    }
  });

  it("each role is refused the other one's dashboard", async () => {
    expect((await t.request('GET', E.overview.admin.path, { token: tokens.school1 })).status).toBe(403);
    expect((await t.request('GET', E.overview.school_admin.path, { token: tokens.admin })).status).toBe(403);
    expect((await t.request('GET', E.overview.admin.path, {})).status).toBe(401);
  });
});

describe("the board's summary, kept by the job queue", () => {
  it('counts stay as counted until the job counts again; two runs at once leave one row, the later one', async () => {
    const db = t.portal.database.db;
    const before = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
    const [candidate] = await db
      .select({ id: candidates.id, verified: candidates.verified })
      .from(candidates)
      .limit(1);
    await db
      .update(candidates)
      .set({ verified: not(candidates.verified) })
      .where(eq(candidates.id, candidate.id));
    const change = candidate.verified ? -1 : 1;
    try {
      // Within the minute: the stored counts (the list already says otherwise).
      const stale = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
      expect(stale.candidates.verified).toBe(before.candidates.verified);
      expect(stale.counted_at).toBe(before.counted_at);
      // The job's run, twice at once (two processes): one row, counted again.
      const later = new Date(Date.now() + 1000);
      await Promise.all([refreshSummary(db, later), refreshSummary(db, new Date(later.getTime() - 500))]);
      const rows = await db.select().from(dashboardSummaries);
      expect(rows).toHaveLength(1);
      expect(rows[0].countedAt.toISOString()).toBe(later.toISOString());
      const fresh = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
      expect(fresh.candidates.verified).toBe(before.candidates.verified + change);
      expect(
        await totalBehind(CANDIDATE_ENDPOINTS.list.path, DASHBOARD_LINKS.verified().href, tokens.admin),
      ).toBe(fresh.candidates.verified);
    } finally {
      await db
        .update(candidates)
        .set({ verified: sql`${candidate.verified}` })
        .where(eq(candidates.id, candidate.id));
      await refreshSummary(db, new Date(Date.now() + 2000));
    }
  });
});

describe("the Dashboard's money and marking links", () => {
  it('paid today and this week (Lagos) are the payment histories filtered the same way', async () => {
    const db = t.portal.database.db;
    const paid = await db
      .select({ id: payments.id, paidAt: payments.paidAt })
      .from(payments)
      .where(eq(payments.status, 'paid'))
      .orderBy(payments.id)
      .limit(2);
    expect(paid).toHaveLength(2);
    const now = new Date();
    try {
      // One paid a minute ago, one 8 days ago (outside any week's start).
      await db
        .update(payments)
        .set({ paidAt: new Date(now.getTime() - 60_000) })
        .where(eq(payments.id, paid[0].id));
      await db
        .update(payments)
        .set({ paidAt: new Date(now.getTime() - 8 * 86_400_000) })
        .where(eq(payments.id, paid[1].id));
      // Counted again, later than any count before it (the summary keeps the latest count).
      await refreshSummary(db, new Date(now.getTime() + 10_000));
      const board = await get<BoardDashboard>(E.overview.admin.path, tokens.admin);
      const list = PAYMENT_HISTORY_LISTS.admin.path;
      const today = await get<Page<{ id: number }>>(
        `${list}?${DASHBOARD_LINKS.paymentsPaid('today').href.split('?')[1]}&per_page=100`,
        tokens.admin,
      );
      expect(today.total).toBe(board.payments.today.count);
      expect(today.items.map((row) => row.id)).toContain(paid[0].id);
      expect(today.items.map((row) => row.id)).not.toContain(paid[1].id);
      expect(await totalBehind(list, DASHBOARD_LINKS.paymentsPaid('week').href, tokens.admin)).toBe(
        board.payments.week.count,
      );
      expect(board.payments.today.count).toBeGreaterThanOrEqual(1);
      // Anything but today or this week is refused in the list's words.
      const refused = await t.request('GET', `${list}?paid=yesterday`, { token: tokens.admin });
      expect(refused.status).toBe(422);
    } finally {
      for (const row of paid)
        await db.update(payments).set({ paidAt: row.paidAt }).where(eq(payments.id, row.id));
      await refreshSummary(db, new Date(Date.now() + 20_000));
    }
  });
});
