import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/db/client';
import { diets, registrationReminders, schoolNotices, trainingSchools } from '../../server/db/schema';
import { sendRegistrationReminders } from '../../server/diets/reminders';
import { startJobs, type Jobs } from '../../server/jobs/queue';
import { currentDietOf, seedCandidates } from './fixtures';
import { startTestPortal, type TestPortal } from './portal';

/**
 * Background jobs on pg-boss, on the database under test (PGlite, or PostgreSQL with DATABASE_URL): a
 * job runs and completes; a job queued before a stop runs after a start; and the registration
 * reminders are recorded and mailed once per school and threshold, with two workers at once.
 */

let t: TestPortal;
let now = new Date();
const db = () => t.portal.database.db;
const quietLog = { info: () => {}, error: () => {} };
/** The other "processes" a test starts, stopped and closed after the file. */
const others: { jobs?: Jobs; database: DatabaseHandle }[] = [];

beforeAll(async () => {
  t = await startTestPortal({}, { clock: () => now, jobs: { pollingIntervalSeconds: 0.5 } });
});
afterAll(async () => {
  for (const other of others) await other.jobs?.stop();
  for (const other of others) if (other.database !== t.portal.database) await other.database.close();
  await t?.close();
});

/** Another "API process" on the same database: its own connections on PostgreSQL, the same PGlite. */
async function secondProcess(): Promise<{ jobs: Jobs; database: DatabaseHandle }> {
  const url = t.databaseUrl;
  const database = url ? await openDatabase({ driver: 'postgres', url }) : t.portal.database;
  const pglite = (t.portal.database as DatabaseHandle & { pglite?: PGlite }).pglite!;
  const jobs = await startJobs(
    url ? { driver: 'postgres', url } : { driver: 'pglite', pglite },
    {
      database,
      storage: t.portal.storage,
      mailer: t.portal.mailer,
      log: quietLog,
      clock: () => now,
      payments: t.portal.payments,
      selfUrl: () => t.url,
      publicUrl: t.url,
    },
    { pollingIntervalSeconds: 0.5 },
  );
  others.push({ jobs, database });
  return { jobs, database };
}

async function completed(jobs: Jobs, name: 'upkeep' | 'registration-reminders', id: string, within = 15_000) {
  const until = Date.now() + within;
  for (;;) {
    const job = await jobs.boss.getJobById(name, id, { includeArchive: true });
    if (job?.state === 'completed') return job;
    if (job?.state === 'failed') throw new Error(`job ${id} failed: ${JSON.stringify(job.output)}`);
    if (Date.now() > until) throw new Error(`job ${id} is still ${job?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the job queue', () => {
  it('runs a job sent to it to completion', async () => {
    const id = await t.portal.jobs.send('upkeep');
    expect(id).toBeTruthy();
    expect((await completed(t.portal.jobs, 'upkeep', id!)).state).toBe('completed');
  });

  it('a job queued by a process that then stops is run by another: it lives in the database', async () => {
    const other = await secondProcess();
    const id = await other.jobs.send('upkeep', {}, { startAfter: 2 });
    // This process stops before the job is due; the portal's own worker (another process) takes it.
    await other.jobs.stop();
    expect((await completed(t.portal.jobs, 'upkeep', id!)).state).toBe('completed');
  });
});

describe('registration reminders', () => {
  it('72 and 24 hours before the close, once per school and threshold, even with two workers', async () => {
    const [ibVerified] = await seedCandidates(t, [
      { first_name: 'Remind', last_name: 'Me', school: 'SHT-IB', course_header: 'A1', verified: true },
    ]);
    await seedCandidates(t, [
      { first_name: 'Not', last_name: 'Verified', school: 'SHT-IB', course_header: 'A1' },
      // CHT-CA has an extension (the sign-ins' diets): its close is later, its reminder too.
      { first_name: 'Extended', last_name: 'School', school: 'CHT-CA', course_header: 'A1', verified: true },
    ]);
    expect(ibVerified).toBeGreaterThan(0);
    const diet = await currentDietOf(t);
    const closes = diet.registrationClosesAt.getTime();

    // Four days before: nothing is due.
    now = new Date(closes - 96 * 3600_000);
    expect(
      await sendRegistrationReminders({ db: db(), mailer: t.portal.mailer, log: quietLog }, now),
    ).toEqual({
      recorded: 0,
      mailed: 0,
    });

    // 71 hours before, two workers at once (two processes on PostgreSQL): SHT-IB is told once.
    now = new Date(closes - 71 * 3600_000);
    const secondHandle = t.databaseUrl
      ? await openDatabase({ driver: 'postgres', url: t.databaseUrl })
      : t.portal.database;
    if (secondHandle !== t.portal.database) others.push({ database: secondHandle });
    const runs = await Promise.all([
      sendRegistrationReminders({ db: db(), mailer: t.portal.mailer, log: quietLog }, now),
      sendRegistrationReminders({ db: secondHandle.db, mailer: t.portal.mailer, log: quietLog }, now),
      sendRegistrationReminders({ db: db(), mailer: t.portal.mailer, log: quietLog }, now),
    ]);
    expect(runs.reduce((sum, run) => sum + run.recorded, 0)).toBe(1);
    expect(runs.reduce((sum, run) => sum + run.mailed, 0)).toBe(1);
    const reminders = await db()
      .select({ school: trainingSchools.code, hours: registrationReminders.hoursBefore })
      .from(registrationReminders)
      .innerJoin(trainingSchools, eq(trainingSchools.id, registrationReminders.trainingSchoolId));
    expect(reminders).toEqual([{ school: 'SHT-IB', hours: 72 }]);

    // 23 hours before, by the queue: two workers take the job sent twice; the 24-hour reminder once.
    now = new Date(closes - 23 * 3600_000);
    const other = await secondProcess();
    const ids = await Promise.all([
      t.portal.jobs.send('registration-reminders'),
      other.jobs.send('registration-reminders'),
    ]);
    for (const id of ids) await completed(t.portal.jobs, 'registration-reminders', id!);
    const after = await db()
      .select({ hours: registrationReminders.hoursBefore, mailed: registrationReminders.mailedAt })
      .from(registrationReminders);
    expect(after.map((row) => row.hours).sort()).toEqual([24, 72]);
    expect(after.every((row) => row.mailed !== null)).toBe(true);

    const notices = await db()
      .select({ title: schoolNotices.title, body: schoolNotices.body })
      .from(schoolNotices)
      .where(eq(schoolNotices.kind, 'registration.reminder'))
      .orderBy(schoolNotices.id);
    expect(notices).toEqual([
      {
        title: `Registration for ${diet.name} closes in 2 days 23 hours`,
        body: expect.stringMatching(/^1 verified candidate is not registered yet\. Registration closes at /),
      },
      {
        title: `Registration for ${diet.name} closes in 23 hours`,
        body: expect.stringMatching(/^1 verified candidate is not registered yet\./),
      },
    ]);
    // One mail a reminder to SHT-IB's admin, none to CHT-CA's yet.
    const mails = (who: string) =>
      fs
        .readdirSync(path.join(t.dataDir, 'mail'))
        .filter((name) => name.endsWith(`-${who}.eml`))
        .map((name) => fs.readFileSync(path.join(t.dataDir, 'mail', name), 'utf8'))
        .filter((text) => text.includes('Subject: Registration for'));
    expect(mails('school1@example.org')).toHaveLength(2);
    expect(mails('school2@example.org')).toHaveLength(0);
  });
});

describe('a close time with microseconds (issue 23)', () => {
  it('is reminded of and mailed once, and a second run mails nothing', async () => {
    // Runs after the test above: SHT-IB still has a verified candidate waiting. The close moves to one
    // that JavaScript's milliseconds cannot hold (a close written by SQL, say, `now() + interval`).
    const diet = await currentDietOf(t);
    const close = new Date(Date.now() + 40 * 24 * 3600_000);
    await db()
      .update(diets)
      .set({ registrationClosesAt: sql`${close.toISOString()}::timestamptz + interval '0.000789 seconds'` })
      .where(eq(diets.id, diet.id));
    const { rows } = (await db().execute(
      sql`select extract(microseconds from registration_closes_at)::int % 1000 as micros from ${diets} where id = ${diet.id}`,
    )) as unknown as { rows: { micros: number }[] };
    expect(Number(rows[0].micros)).toBe(789);

    const toSchool1 = () =>
      fs
        .readdirSync(path.join(t.dataDir, 'mail'))
        .filter((name) => name.endsWith('-school1@example.org.eml'))
        .map((name) => fs.readFileSync(path.join(t.dataDir, 'mail', name), 'utf8'))
        .filter((text) => text.includes('Subject: Registration for')).length;
    const before = toSchool1();
    now = new Date(close.getTime() - 10 * 3600_000);
    const run = () => sendRegistrationReminders({ db: db(), mailer: t.portal.mailer, log: quietLog }, now);
    const first = await run();
    expect(first.recorded).toBeGreaterThanOrEqual(1);
    expect(first.mailed).toBe(first.recorded);
    expect(toSchool1()).toBe(before + 1);
    // Again, and again later: recorded and mailed, so nothing more.
    expect(await run()).toEqual({ recorded: 0, mailed: 0 });
    now = new Date(close.getTime() - 9 * 3600_000);
    expect(await run()).toEqual({ recorded: 0, mailed: 0 });
    expect(toSchool1()).toBe(before + 1);
    const unmailed = await db()
      .select({ hours: registrationReminders.hoursBefore })
      .from(registrationReminders)
      .where(sql`${registrationReminders.mailedAt} is null`);
    expect(unmailed).toEqual([]);
  });
});
