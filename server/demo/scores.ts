import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_RESULT_RULES, QUESTIONS } from '../../contract/scores';
import { computeResults } from '../scores/compute';
import { snapshotPublished } from '../scores/results';
import {
  candidates,
  courseHeaders,
  inCourseScores,
  papers,
  registrations,
  resultPublications,
  resultRules,
  scoreSheets,
  scriptMarks,
  users,
} from '../db/schema';
import type { DemoAccounts } from './accounts';
import { daysAfter, daysBefore, type DemoSeed } from './context';
import type { DemoDiets } from './diets';
import { random, seedOf } from './random';

/**
 * Scores mid-year: three markers on the board's staff (marker1, marker2 and marker3 @example.org, the
 * demo password); two papers for every course header; the last diet marked by both markers on every
 * paper, a few scripts out of tolerance settled by the third marker, in-course scores entered, every
 * sheet locked and the results published (so the schools see theirs); the current diet's papers open,
 * marker one part of the way through A1's Paper I.
 */

export const DEMO_MARKERS = [
  { email: 'marker1@example.org', name: 'Chinedu Eze' },
  { email: 'marker2@example.org', name: 'Funmilayo Adebayo' },
  { email: 'marker3@example.org', name: 'Ibrahim Musa' },
] as const;

const PAPERS = [
  { name: 'Paper I', qMax: [200, 200, 200, 200, 200] },
  { name: 'Paper II', qMax: [250, 250, 250, 250, 0] },
];

export async function seedScores(
  { tx, now }: DemoSeed,
  accounts: DemoAccounts,
  diets: DemoDiets,
): Promise<void> {
  const draw = random(seedOf('scores'));
  const passwordHash = (
    await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, accounts.adminId))
  )[0].hash;
  const markers = await tx
    .insert(users)
    .values(
      DEMO_MARKERS.map((m, i) => ({
        ...m,
        role: 'admin',
        gender: i === 1 ? 'female' : 'male',
        operatorId: `OP-00${11 + i}`,
        passwordHash,
      })),
    )
    .returning({ id: users.id });
  const [one, two, three] = markers.map((m) => m.id);

  const headers = await tx.select({ id: courseHeaders.id, code: courseHeaders.code }).from(courseHeaders);
  const paperRows = await tx
    .insert(papers)
    .values(
      headers.flatMap((h) =>
        PAPERS.map((p) => ({
          courseHeaderId: h.id,
          name: p.name,
          qMax: p.qMax,
          toleranceQuestion: 20,
          toleranceTotal: 50,
        })),
      ),
    )
    .returning();
  // One course header weighs its in-course work more (a practical-heavy programme).
  const b1 = headers.find((h) => h.code === 'B1');
  if (b1) {
    await tx.insert(resultRules).values({
      courseHeaderId: b1.id,
      inCourseWeight: 40,
      passMark: DEFAULT_RESULT_RULES.pass_mark,
      gradeBands: DEFAULT_RESULT_RULES.grade_bands,
    });
  }

  // The last diet: everything marked, reconciled, locked and published.
  const past = await tx
    .select({ id: candidates.id, courseHeaderId: candidates.courseHeaderId })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .where(and(eq(registrations.dietId, diets.past.id), eq(registrations.regStatus, 'registered')));
  const submitted = daysBefore(now, 40);
  for (const header of headers) {
    const roster = past.filter((c) => c.courseHeaderId === header.id);
    if (!roster.length) continue;
    for (const paper of paperRows.filter((p) => p.courseHeaderId === header.id)) {
      const [sheet] = await tx
        .insert(scoreSheets)
        .values({
          kind: 'exam',
          dietId: diets.past.id,
          courseHeaderId: header.id,
          paperId: paper.id,
          state: 'locked',
          markerOneId: one,
          markerTwoId: two,
          markerThreeId: three,
          markerOneSubmittedAt: submitted,
          markerTwoSubmittedAt: daysBefore(now, 38),
          lockedAt: daysBefore(now, 35),
          createdBy: accounts.adminId,
        })
        .returning();
      const rows: (typeof scriptMarks.$inferInsert)[] = [];
      for (const candidate of roster) {
        if (draw.chance(0.02)) {
          // Absent from the paper: both markers say so.
          for (const marker of [1, 2])
            rows.push({
              sheetId: sheet.id,
              candidateId: candidate.id,
              marker,
              absent: true,
              updatedBy: marker === 1 ? one : two,
            });
          continue;
        }
        const ability = 0.35 + draw.next() * 0.55;
        const first = paper.qMax.map((max) =>
          max === 0 ? null : Math.round((max * ability * (0.8 + draw.next() * 0.4)) / 5) * 5,
        );
        const capped = first.map((m, i) => (m === null ? null : Math.min(m, paper.qMax[i])));
        // Marker two within a mark of marker one, but about one script in twelve sharply apart.
        const divergent = draw.chance(1 / 12);
        const second = capped.map((m, i) =>
          m === null
            ? null
            : Math.max(0, Math.min(paper.qMax[i], m + (divergent && i === 0 ? 40 : draw.int(-1, 1) * 5))),
        );
        for (const [marker, marks, by] of [
          [1, capped, one],
          [2, second, two],
          ...(divergent
            ? [[3, capped.map((m, i) => (m === null ? null : Math.min(paper.qMax[i], m + 10))), three]]
            : []),
        ] as [number, (number | null)[], number][]) {
          rows.push({
            sheetId: sheet.id,
            candidateId: candidate.id,
            marker,
            ...Object.fromEntries(QUESTIONS.map((q, i) => [q, marks[i]])),
            totalScore: marks.reduce<number>((a, b) => a + (b ?? 0), 0),
            updatedBy: by,
          });
        }
      }
      for (let i = 0; i < rows.length; i += 500) await tx.insert(scriptMarks).values(rows.slice(i, i + 500));
    }
    const [inCourse] = await tx
      .insert(scoreSheets)
      .values({
        kind: 'in_course',
        dietId: diets.past.id,
        courseHeaderId: header.id,
        state: 'locked',
        markerOneId: one,
        lockedAt: daysBefore(now, 35),
        createdBy: accounts.adminId,
      })
      .returning();
    await tx.insert(inCourseScores).values(
      roster.map((candidate) => {
        const scores = [draw.int(45, 90) * 10, draw.int(45, 90) * 10, draw.int(45, 90) * 10];
        return {
          sheetId: inCourse.id,
          candidateId: candidate.id,
          firstSemesterScore: scores[0],
          secondSemesterScore: scores[1],
          thirdSemesterScore: scores[2],
          totalScore: Math.ceil((scores[0] + scores[1] + scores[2]) / 3),
          updatedBy: one,
        };
      }),
    );
    await computeResults(tx, diets.past.id, header.id);
    await tx
      .update(scoreSheets)
      .set({ state: 'published' })
      .where(and(eq(scoreSheets.dietId, diets.past.id), eq(scoreSheets.courseHeaderId, header.id)));
    await tx.insert(resultPublications).values({
      dietId: diets.past.id,
      courseHeaderId: header.id,
      publishedAt: daysBefore(now, 30),
      publishedBy: accounts.adminId,
    });
    // What the schools read: the snapshot of the results as published.
    await snapshotPublished(tx, diets.past.id, header.id, daysBefore(now, 30));
  }

  // The current diet: Paper I of A1 and B1 open, marker one part of the way through A1's.
  const current = await tx
    .select({ id: candidates.id, courseHeaderId: candidates.courseHeaderId })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .where(and(eq(registrations.dietId, diets.current.id), eq(registrations.regStatus, 'registered')))
    .orderBy(sql`${candidates.candidateIndex}`);
  for (const code of ['A1', 'B1']) {
    const header = headers.find((h) => h.code === code);
    const paper = paperRows.find((p) => p.courseHeaderId === header?.id && p.name === 'Paper I');
    if (!header || !paper) continue;
    const [sheet] = await tx
      .insert(scoreSheets)
      .values({
        kind: 'exam',
        dietId: diets.current.id,
        courseHeaderId: header.id,
        paperId: paper.id,
        markerOneId: one,
        markerTwoId: two,
        createdBy: accounts.adminId,
        createdAt: daysAfter(daysBefore(now, 2), 0),
      })
      .returning();
    if (code !== 'A1') continue;
    const begun = current.filter((c) => c.courseHeaderId === header.id).slice(0, 5);
    if (begun.length) {
      await tx.insert(scriptMarks).values(
        begun.map((candidate) => {
          const marks = paper.qMax.map((max) => Math.round((max * (0.4 + draw.next() * 0.5)) / 5) * 5);
          return {
            sheetId: sheet.id,
            candidateId: candidate.id,
            marker: 1,
            ...Object.fromEntries(QUESTIONS.map((q, i) => [q, marks[i]])),
            totalScore: marks.reduce((a, b) => a + b, 0),
            updatedBy: one,
          };
        }),
      );
    }
  }
}
