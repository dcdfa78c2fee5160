import { sql } from 'drizzle-orm';
import { EXAM_MONTHS } from '../../contract/candidates';
import { parseBoardMoment } from '../../contract/diets';
import { formatDateTime } from '../../contract/format';
import type { Database } from '../db/client';
import { dietExtensions, diets, schoolNotices, trainingSchools } from '../db/schema';
import { daysAfter, daysBefore, isoDay } from './context';

/**
 * The demo's exam diets: the last one, sat and closed; and the current one, its registration window
 * open and closing in a few days at 17:00 Lagos time, its papers three weeks after, with one school
 * (College of Health Technology, Calabar) given an extension. The sign-ins the test suites build on
 * have them too, so registration works from the first request.
 */

interface DemoDiet {
  id: number;
  code: string;
  name: string;
}

export interface DemoDiets {
  past: DemoDiet;
  current: DemoDiet;
}

/** A diet named by the month and year of its first paper, as boards name their sittings. */
const named = (firstPaper: Date) => {
  const month = EXAM_MONTHS[firstPaper.getUTCMonth()];
  const year = firstPaper.getUTCFullYear();
  return {
    code: `${month.slice(0, 3).toUpperCase()}-${year}`,
    name: `${month} ${year} Professional Examinations`,
  };
};

/** 17:00 Lagos time on the day of `date`. */
const fivePm = (date: Date) => new Date(parseBoardMoment(`${isoDay(date)}T17:00`)!);

const EXTENDED_SCHOOL = 'CHT-CA';

export async function seedDiets(tx: Database, now: Date, adminId: number | null): Promise<DemoDiets> {
  const pastFirst = daysBefore(now, 75);
  const closes = fivePm(daysAfter(now, 4));
  const currentFirst = daysAfter(closes, 21);
  const [past, current] = await tx
    .insert(diets)
    .values([
      {
        ...named(pastFirst),
        firstPaperOn: isoDay(pastFirst),
        lastPaperOn: isoDay(daysAfter(pastFirst, 11)),
        registrationOpensAt: fivePm(daysBefore(pastFirst, 90)),
        registrationClosesAt: fivePm(daysBefore(pastFirst, 21)),
        closedAt: daysAfter(pastFirst, 40),
        closedBy: adminId,
      },
      {
        ...named(currentFirst),
        firstPaperOn: isoDay(currentFirst),
        lastPaperOn: isoDay(daysAfter(currentFirst, 11)),
        registrationOpensAt: fivePm(daysBefore(now, 40)),
        registrationClosesAt: closes,
        current: true,
      },
    ])
    .returning({ id: diets.id, code: diets.code, name: diets.name });
  const extended = sql`(select ${trainingSchools.id} from ${trainingSchools} where ${trainingSchools.code} = ${EXTENDED_SCHOOL})`;
  const until = daysAfter(closes, 3);
  await tx.insert(dietExtensions).values({
    dietId: current.id,
    trainingSchoolId: extended,
    until,
    reason: 'Photographs and certificates lost when the school’s records office flooded; resubmitting.',
    grantedBy: adminId,
  });
  // Told to the school, as granting one from the Exam diets page tells it (server/diets/service.ts).
  await tx.insert(schoolNotices).values({
    trainingSchoolId: extended,
    kind: 'registration.extension',
    title: `Registration for ${current.name} extended`,
    body: `The board has extended registration for ${current.name} for College of Health Technology, Calabar until ${formatDateTime(until)} (Lagos time).`,
    createdAt: daysBefore(now, 1),
  });
  return { past, current };
}
