import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DocumentBlock } from '../../../contract/documents';
import type { Database } from '../../db/client';
import { candidates, courseHeaders, registrations } from '../../db/schema';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder } from '../builder';
import { headingOf } from '../common';

/**
 * Two of the statistics: how many candidates each course header has indexed, verified and not, year by
 * year (course-index-stats), and how many are registered for a diet, course header by course header
 * (course-reg-stats). Each is one aggregate query; the rows' facts are the counts, so a candidate indexed,
 * verified or registered after the paper was printed makes its code answer 'changed'.
 */

const count = sql<number>`count(*)::int`;
const percent = (part: number, whole: number) =>
  whole === 0 ? '–' : `${Math.round((1000 * part) / whole) / 10}%`;

/** A bar per course header, on an axis that ends at the largest. */
function chartOf(title: string, unit: string, bars: { label: string; value: number }[]): DocumentBlock {
  return { kind: 'chart', title, unit, max: Math.max(1, ...bars.map((bar) => bar.value)), bars };
}

async function indexedByCourseAndYear(db: Database) {
  return db
    .select({
      code: courseHeaders.code,
      title: courseHeaders.title,
      year: candidates.year,
      indexed: count,
      verified: sql<number>`(count(*) filter (where ${candidates.verified}))::int`,
    })
    .from(candidates)
    .innerJoin(courseHeaders, eq(courseHeaders.id, candidates.courseHeaderId))
    .groupBy(courseHeaders.code, courseHeaders.title, candidates.year)
    .orderBy(asc(courseHeaders.code), desc(candidates.year));
}

export const courseIndexStats: DocumentBuilder = {
  ending: 'course-index-stats',
  async count(db) {
    return (await indexedByCourseAndYear(db)).length;
  },
  async build(db, scope): Promise<BuiltDocument> {
    const groups = await indexedByCourseAndYear(db);
    const heading = headingOf(scope, { label: 'Covers', value: 'Every training school' });
    const total = groups.reduce((sum, g) => sum + g.indexed, 0);
    const verified = groups.reduce((sum, g) => sum + g.verified, 0);
    const facts = {
      'Candidates indexed': String(total),
      Verified: String(verified),
      'Not verified': String(total - verified),
    };
    if (groups.length === 0) {
      return { heading, facts, blocks: [{ kind: 'notice', text: 'No candidate has been indexed yet.' }] };
    }
    const rows: BuiltRow[] = groups.map((g) => ({
      key: `${g.code} ${g.year}`,
      cells: [
        `${g.code} ${g.title}`,
        String(g.year),
        String(g.indexed),
        String(g.verified),
        String(g.indexed - g.verified),
        percent(g.verified, g.indexed),
      ],
      facts: {
        Indexed: String(g.indexed),
        Verified: String(g.verified),
        'Not verified': String(g.indexed - g.verified),
      },
    }));
    const byCourse = new Map<string, number>();
    for (const g of groups) byCourse.set(g.code, (byCourse.get(g.code) ?? 0) + g.indexed);
    const blocks: BuiltBlock[] = [
      chartOf(
        'Candidates indexed, by course header',
        'candidates',
        [...byCourse].map(([label, value]) => ({ label, value })),
      ),
      {
        kind: 'table',
        title: 'Candidates indexed, by course header and year',
        columns: [
          { label: 'Course header', width: 3 },
          { label: 'Year', align: 'right' },
          { label: 'Indexed', align: 'right' },
          { label: 'Verified', align: 'right' },
          { label: 'Not verified', align: 'right' },
          { label: '% verified', align: 'right' },
        ],
        rows,
        totals: [
          'All',
          '',
          String(total),
          String(verified),
          String(total - verified),
          percent(verified, total),
        ],
      },
    ];
    return { heading, facts, blocks };
  },
};

/** Every course header with its registrations for the diet, by reg_status (a withdrawn one stays 'unregistered'). */
async function registrationsByCourse(db: Database, dietId: number) {
  return db
    .select({
      code: courseHeaders.code,
      title: courseHeaders.title,
      registered: sql<number>`(count(${registrations.candidateId}) filter (where ${registrations.regStatus} = 'registered'))::int`,
      unregistered: sql<number>`(count(${registrations.candidateId}) filter (where ${registrations.regStatus} = 'unregistered'))::int`,
    })
    .from(courseHeaders)
    .leftJoin(candidates, eq(candidates.courseHeaderId, courseHeaders.id))
    .leftJoin(
      registrations,
      and(eq(registrations.candidateId, candidates.id), eq(registrations.dietId, dietId)),
    )
    .groupBy(courseHeaders.code, courseHeaders.title)
    .orderBy(asc(courseHeaders.code));
}

export const courseRegStats: DocumentBuilder = {
  ending: 'course-reg-stats',
  async count(db, scope) {
    return scope.diet ? (await registrationsByCourse(db, scope.diet.id)).length : 0;
  },
  async build(db, scope): Promise<BuiltDocument> {
    const heading = headingOf(scope, { label: 'Covers', value: 'Every training school' });
    // The pipeline resolves the required diet before a builder runs.
    const groups = await registrationsByCourse(db, scope.diet!.id);
    const registered = groups.reduce((sum, g) => sum + g.registered, 0);
    const unregistered = groups.reduce((sum, g) => sum + g.unregistered, 0);
    const facts = { Registered: String(registered), Unregistered: String(unregistered) };
    const rows: BuiltRow[] = groups.map((g) => ({
      key: g.code,
      cells: [
        `${g.code} ${g.title}`,
        String(g.registered),
        String(g.unregistered),
        String(g.registered + g.unregistered),
        percent(g.registered, registered),
      ],
      facts: { Registered: String(g.registered), Unregistered: String(g.unregistered) },
    }));
    const blocks: BuiltBlock[] = [];
    if (registered + unregistered === 0) {
      blocks.push({ kind: 'notice', text: 'No candidate has been registered for this diet.' });
    } else {
      blocks.push(
        chartOf(
          'Candidates registered, by course header',
          'candidates',
          groups.map((g) => ({ label: g.code, value: g.registered })),
        ),
      );
    }
    blocks.push({
      kind: 'table',
      title: 'Registrations by course header and status',
      columns: [
        { label: 'Course header', width: 3 },
        { label: 'Registered', align: 'right' },
        { label: 'Unregistered after registering', align: 'right', width: 1.5 },
        { label: 'Entries', align: 'right' },
        { label: 'Share of registered', align: 'right' },
      ],
      rows,
      totals: [
        'All',
        String(registered),
        String(unregistered),
        String(registered + unregistered),
        registered ? '100%' : '–',
      ],
    });
    return { heading, facts, blocks };
  },
};
