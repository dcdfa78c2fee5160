import { and, eq, inArray, sql } from 'drizzle-orm';
import { REMINDER_HOURS, formatCountdown } from '../../contract/diets';
import { formatDateTime } from '../../contract/format';
import type { Database } from '../db/client';
import { diets, registrationReminders, schoolNotices, trainingSchools, users } from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';

/**
 * The closing reminders (issue 11): 72 and 24 hours before a school's registration closes (the diet's
 * close, or the school's extension), each school that still has verified candidates unregistered for
 * the current diet is told, on its dashboard and by mail to its active admins. Run by the job queue
 * every quarter of an hour (server/jobs/); safe to run twice at once, on two processes, or again after
 * a crash:
 * - one reminder a diet, school, threshold and closing moment: the insert that records it is the check
 *   (`on conflict do nothing`), so only one run writes it and its notice;
 * - the mail is sent from the recorded reminders not yet mailed, each row locked while it is mailed
 *   (`skip locked`: another run takes the others), and marked mailed in the same transaction. A crash
 *   between the send and the commit mails that school again on the next run: once too often rather
 *   than never.
 */

/**
 * Of the thresholds a close is within, the nearest is recorded: a school first found 20 hours before its
 * close is told once that it closes in 20 hours, not twice.
 */
const THRESHOLDS = [...REMINDER_HOURS].sort((a, b) => a - b);

export interface RemindersRun {
  recorded: number;
  mailed: number;
}

export async function sendRegistrationReminders(
  { db, mailer, log }: { db: Database; mailer: Mailer; log: Logger },
  now: Date,
): Promise<RemindersRun> {
  const recorded = await recordDueReminders(db, now);
  const mailed = await mailPendingReminders(db, mailer, log);
  return { recorded, mailed };
}

/** A registration_reminders row as both statements return it (closes_at as the driver gives it). */
interface ReminderRow {
  diet_id: number;
  training_school_id: number;
  hours_before: number;
  closes_at: string | Date;
  unregistered: number;
}

/** Records the reminders due at `now` and writes each one's dashboard notice, in one transaction. */
async function recordDueReminders(db: Database, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const moment = now.toISOString();
    // The thresholds are the contract's constants, not input.
    const thresholds = sql.raw(`array[${THRESHOLDS.join(', ')}]::int[]`);
    // The schools still to register someone: verified candidates with no registration for the diet.
    const { rows } = (await tx.execute(sql`
      with diet as (
        select id, registration_opens_at, registration_closes_at from ${diets}
        where current and closed_at is null and registration_opens_at <= ${moment}::timestamptz
      ),
      waiting as (
        select c.training_school_id as school, count(*)::int as unregistered
        from candidates c, diet
        where c.verified and not exists (
          select 1 from registrations g
          where g.diet_id = diet.id and g.candidate_id = c.id and g.reg_status = 'registered')
        group by c.training_school_id
      ),
      closing as (
        select diet.id as diet_id, w.school, w.unregistered,
               coalesce(greatest(e.until, diet.registration_closes_at), diet.registration_closes_at) as closes_at
        from diet cross join waiting w
        join training_schools s on s.id = w.school and s.status = 'active'
        left join diet_extensions e on e.diet_id = diet.id and e.training_school_id = w.school
      ),
      due as (
        select diet_id, school, unregistered, closes_at,
               (select min(h) from unnest(${thresholds}) as h
                where closes_at - make_interval(hours => h) <= ${moment}::timestamptz) as hours
        from closing where closes_at > ${moment}::timestamptz
      )
      insert into registration_reminders (diet_id, training_school_id, hours_before, closes_at, unregistered)
      select diet_id, school, hours, closes_at, unregistered from due where hours is not null
      on conflict do nothing
      returning diet_id, training_school_id, hours_before, closes_at, unregistered`)) as unknown as {
      rows: ReminderRow[];
    };
    if (!rows.length) return 0;
    const [diet] = await tx.select({ name: diets.name }).from(diets).where(eq(diets.id, rows[0].diet_id));
    await tx.insert(schoolNotices).values(
      rows.map((row) => {
        const closes = new Date(row.closes_at);
        const count =
          row.unregistered === 1 ? '1 verified candidate is' : `${row.unregistered} verified candidates are`;
        return {
          trainingSchoolId: row.training_school_id,
          kind: 'registration.reminder',
          title: `Registration for ${diet.name} closes in ${formatCountdown(closes.getTime() - now.getTime())}`,
          body: `${count} not registered yet. Registration closes at ${formatDateTime(closes)} (Lagos time).`,
        };
      }),
    );
    return rows.length;
  });
}

/**
 * Mails the recorded reminders not yet mailed to their schools' active admins. They are taken and marked
 * mailed by one statement, so the row is found by its own key in SQL: the close time read into
 * JavaScript would lose its microseconds, match no row, and the school would be mailed at every run.
 * Marked before the mail but in the same transaction: a mail that fails undoes the marks.
 */
async function mailPendingReminders(db: Database, mailer: Mailer, log: Logger): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows: pending } = (await tx.execute(sql`
      update ${registrationReminders} r set mailed_at = now()
      from (
        select diet_id, training_school_id, hours_before, closes_at from ${registrationReminders}
        where mailed_at is null
        order by created_at
        limit 100
        for update skip locked
      ) due
      where (r.diet_id, r.training_school_id, r.hours_before, r.closes_at)
          = (due.diet_id, due.training_school_id, due.hours_before, due.closes_at)
      returning r.diet_id, r.training_school_id, r.hours_before, r.closes_at, r.unregistered`)) as unknown as {
      rows: ReminderRow[];
    };
    if (!pending.length) return 0;
    const schoolIds = [...new Set(pending.map((row) => row.training_school_id))];
    const admins = await tx
      .select({ email: users.email, schoolId: users.trainingSchoolId, school: trainingSchools.name })
      .from(users)
      .innerJoin(trainingSchools, eq(trainingSchools.id, users.trainingSchoolId))
      .where(
        and(
          eq(users.role, 'school_admin'),
          eq(users.active, true),
          inArray(users.trainingSchoolId, schoolIds),
        ),
      );
    const dietNames = new Map(
      (await tx.select({ id: diets.id, name: diets.name }).from(diets)).map((row) => [row.id, row.name]),
    );
    for (const reminder of pending) {
      const diet = dietNames.get(reminder.diet_id)!;
      for (const admin of admins.filter((row) => row.schoolId === reminder.training_school_id)) {
        await mailer.send({
          to: admin.email,
          kind: 'registration reminder',
          subject: `Registration for ${diet} closes in ${reminder.hours_before} hours`,
          text: [
            `${admin.school} still has ${reminder.unregistered} verified candidate${reminder.unregistered === 1 ? '' : 's'} not registered for ${diet}.`,
            `Registration closes at ${formatDateTime(new Date(reminder.closes_at))} (Lagos time).`,
            'Sign in to the portal and open Registered Candidates to register them.',
          ].join('\n\n'),
        });
      }
    }
    log.info('registration.reminders_mailed', { reminders: pending.length });
    return pending.length;
  });
}
