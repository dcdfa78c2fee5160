import { RESIT_PAPERS } from '../../contract/resits';
import { examOffences, resits } from '../db/schema';
import type { DemoAccounts } from './accounts';
import type { DemoCandidate } from './candidates';
import { areaRandom, daysAfter, daysBefore, isoDay, type DemoSeed } from './context';
import type { DemoDiets } from './diets';

/**
 * The board's two lists: exam offenders from the last diet (most sanctions still in force, by diets or
 * by dates, a few run out), and resit entries for the current diet, added by the board and by the schools' admins. A
 * candidate under a sanction in force is unregistered and has no resit entry, as the portal's own rules
 * would have it.
 */

const OFFENCES = [
  'Impersonation',
  'Possession of unauthorised material in the examination hall',
  'Collusion with another candidate',
  'Use of a mobile phone during the examination',
  'Leaving the hall with the answer booklet',
];
const SANCTIONS = ['Barred from the next examination', 'Barred from the next two examinations'];
const INDEFINITE = "Barred until the board's review";

/** Candidates indexed before the last sitting: those who sat it. */
const satLastSitting = (candidate: DemoCandidate, now: Date) => candidate.createdAt < daysBefore(now, 150);

export async function seedListed(
  demo: DemoSeed,
  accounts: DemoAccounts,
  all: DemoCandidate[],
  diets: DemoDiets,
): Promise<void> {
  const { tx, now } = demo;
  const rng = areaRandom('listed');
  const sat = all.filter((candidate) => satLastSitting(candidate, now));

  // Offenders: six under a sanction in force (two with no end date), three whose sanction has run out.
  const unregistered = sat.filter((candidate) => candidate.regStatus === 'unregistered');
  // Two indefinite (by dates), two by diets (barring the current one), two by dates still running.
  const sanctioned = rng.sample(unregistered, 6);
  const lapsed = rng.sample(
    sat.filter((candidate) => !sanctioned.includes(candidate)),
    3,
  );
  const offences = [
    ...sanctioned.map((candidate, i) => {
      const recorded = daysBefore(now, rng.int(20, 60));
      const byDiets = i === 2 || i === 3;
      return {
        candidateId: candidate.id,
        dietId: diets.past.id,
        offence: rng.pick(OFFENCES),
        sanction:
          i < 2 ? INDEFINITE : byDiets ? SANCTIONS[i - 2] : 'Barred from registration until the date given',
        sanctionDiets: byDiets ? i - 1 : null,
        sanctionFrom: byDiets ? null : isoDay(recorded),
        sanctionUntil: i < 2 || byDiets ? null : isoDay(daysAfter(now, rng.int(60, 400))),
        createdBy: accounts.adminId,
        createdAt: recorded,
      };
    }),
    ...lapsed.map((candidate) => {
      // At the last diet, its sanction by dates already run out.
      const recorded = daysBefore(now, rng.int(55, 70));
      return {
        candidateId: candidate.id,
        dietId: diets.past.id,
        offence: rng.pick(OFFENCES),
        sanction: 'Result of the paper cancelled',
        sanctionFrom: isoDay(recorded),
        sanctionUntil: isoDay(daysAfter(recorded, rng.int(20, 45))),
        createdBy: accounts.adminId,
        createdAt: recorded,
      };
    }),
  ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  await tx.insert(examOffences).values(offences);

  // Resits: verified candidates who sat the last exam and are free to sit the next; SHT-IB's and
  // CHT-CA's entries added by their own school admins.
  const free = sat.filter((candidate) => candidate.verified && !sanctioned.includes(candidate));
  const entries = [
    ...rng.sample(
      free.filter((candidate) => candidate.schoolCode === 'SHT-IB'),
      5,
    ),
    ...rng.sample(
      free.filter((candidate) => candidate.schoolCode !== 'SHT-IB'),
      11,
    ),
  ];
  const resitRows = entries
    .map((candidate) => {
      const papers = rng.sample(RESIT_PAPERS, rng.int(1, 3));
      return {
        candidateId: candidate.id,
        dietId: diets.current.id,
        papers: RESIT_PAPERS.filter((paper) => papers.includes(paper)),
        createdBy: accounts.schoolAdminOf[candidate.schoolCode] ?? accounts.adminId,
        createdAt: daysBefore(now, rng.int(1, 60) + rng.next()),
      };
    })
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  await tx.insert(resits).values(resitRows);
}
