import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { GradeBand, ResultOutcome, SheetKind, SheetState } from '../../../contract/scores';
import { users } from './auth';
import { candidates } from './candidates';
import { createdAt, updatedAt } from './columns';
import { courseHeaders } from './courses';
import { diets } from './diets';
import { trainingSchools } from './schools';

/**
 * Scores and results (contract/scores.ts). Marks are integers in tenths. A sheet is a diet x course
 * header x paper (optionally one school's); its marks are one row per candidate and marker (1, 2, 3),
 * each with a version for optimistic concurrency. Results are computed per diet and course header into
 * `results`; a publication makes them visible to the schools until it is withdrawn.
 */
export const papers = pgTable(
  'papers',
  {
    id: serial('id').primaryKey(),
    courseHeaderId: integer('course_header_id')
      .notNull()
      .references(() => courseHeaders.id),
    name: text('name').notNull(),
    /** q1 to q5's maxima in tenths; 0: the paper has no such question. */
    qMax: smallint('q_max').array().notNull(),
    toleranceQuestion: smallint('tolerance_question').notNull(),
    toleranceTotal: smallint('tolerance_total').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('papers_name_key').on(t.courseHeaderId, sql`lower(${t.name})`)],
);

/** A course header's weighting, pass mark and grade bands (none: contract DEFAULT_RESULT_RULES). */
export const resultRules = pgTable('result_rules', {
  courseHeaderId: integer('course_header_id')
    .primaryKey()
    .references(() => courseHeaders.id),
  inCourseWeight: smallint('in_course_weight').notNull(),
  passMark: smallint('pass_mark').notNull(),
  gradeBands: jsonb('grade_bands').$type<GradeBand[]>().notNull(),
  updatedAt: updatedAt(),
});

export const scoreSheets = pgTable(
  'score_sheets',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<SheetKind>().notNull(),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    courseHeaderId: integer('course_header_id')
      .notNull()
      .references(() => courseHeaders.id),
    /** Null for an in-course sheet. */
    paperId: integer('paper_id').references(() => papers.id),
    /** Null: every school's candidates. */
    trainingSchoolId: integer('training_school_id').references(() => trainingSchools.id),
    state: text('state').$type<SheetState>().notNull().default('open'),
    markerOneId: integer('marker_one_id')
      .notNull()
      .references(() => users.id),
    markerTwoId: integer('marker_two_id').references(() => users.id),
    markerThreeId: integer('marker_three_id').references(() => users.id),
    markerOneSubmittedAt: timestamp('marker_one_submitted_at', { withTimezone: true }),
    markerTwoSubmittedAt: timestamp('marker_two_submitted_at', { withTimezone: true }),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** Scripts out of tolerance without their third mark yet (kept by server/scores/sheets.ts). */
    flagged: integer('flagged').notNull().default(0),
    /** Bumped by every change of state, so a view loaded before it knows it is stale. */
    version: integer('version').notNull().default(1),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One sheet per diet, course header, paper and school (null school: all; coalesce makes it unique).
    uniqueIndex('score_sheets_key').on(
      t.dietId,
      t.courseHeaderId,
      sql`coalesce(${t.paperId}, 0)`,
      sql`coalesce(${t.trainingSchoolId}, 0)`,
    ),
  ],
);

export const scriptMarks = pgTable(
  'script_marks',
  {
    sheetId: integer('sheet_id')
      .notNull()
      .references(() => scoreSheets.id),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    /** 1, 2 or 3 (the third marker). */
    marker: smallint('marker').notNull(),
    q1: smallint('q1'),
    q2: smallint('q2'),
    q3: smallint('q3'),
    q4: smallint('q4'),
    q5: smallint('q5'),
    absent: boolean('absent').notNull().default(false),
    /** Computed on the server from q1 to q5 (null while a question worth something has no mark). */
    totalScore: integer('total_score'),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.sheetId, t.candidateId, t.marker] })],
);

export const inCourseScores = pgTable(
  'in_course_scores',
  {
    sheetId: integer('sheet_id')
      .notNull()
      .references(() => scoreSheets.id),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    firstSemesterScore: smallint('first_semester_score'),
    secondSemesterScore: smallint('second_semester_score'),
    thirdSemesterScore: smallint('third_semester_score'),
    totalScore: integer('total_score'),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.sheetId, t.candidateId] })],
);

/** The board holds a candidate's result for a diet, with its reason, until it releases it. */
export const resultHolds = pgTable(
  'result_holds',
  {
    id: serial('id').primaryKey(),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    reason: text('reason').notNull(),
    heldBy: integer('held_by').references(() => users.id),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: integer('released_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('result_holds_open_key')
      .on(t.dietId, t.candidateId)
      .where(sql`${t.releasedAt} is null`),
  ],
);

/** Computed results, per diet, course header and candidate (recomputed as a whole for a pair). */
export const results = pgTable(
  'results',
  {
    id: serial('id').primaryKey(),
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    courseHeaderId: integer('course_header_id')
      .notNull()
      .references(() => courseHeaders.id),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    /** Tenths of a percent. */
    examMark: integer('exam_mark'),
    inCourseMark: integer('in_course_mark'),
    finalMark: integer('final_mark'),
    grade: text('grade'),
    outcome: text('outcome').$type<ResultOutcome>().notNull(),
    note: text('note'),
    computedAt: createdAt(),
  },
  (t) => [
    uniqueIndex('results_key').on(t.dietId, t.courseHeaderId, t.candidateId),
    index('results_school_idx').on(t.trainingSchoolId, t.dietId),
  ],
);

/** A diet and course header's results, published (withdrawn_at null) or withdrawn. */
export const resultPublications = pgTable(
  'result_publications',
  {
    dietId: integer('diet_id')
      .notNull()
      .references(() => diets.id),
    courseHeaderId: integer('course_header_id')
      .notNull()
      .references(() => courseHeaders.id),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    publishedBy: integer('published_by').references(() => users.id),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnBy: integer('withdrawn_by').references(() => users.id),
    /** Why the board withdrew them (required: a withdrawal is the one way published results change). */
    withdrawReason: text('withdraw_reason'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.dietId, t.courseHeaderId] })],
);

/**
 * What a publication published: each candidate's row as it was at publishing (a copy of `results`),
 * the only rows a school reads. Recomputing, result rules, holds and marks change `results`, never these;
 * they are replaced when the pair is published again (after a withdrawal), and kept after a withdrawal so
 * that the next publication's preview can say what changes.
 */
export const publishedResults = pgTable(
  'published_results',
  {
    id: serial('id').primaryKey(),
    dietId: integer('diet_id').notNull(),
    courseHeaderId: integer('course_header_id').notNull(),
    candidateId: integer('candidate_id')
      .notNull()
      .references(() => candidates.id),
    trainingSchoolId: integer('training_school_id')
      .notNull()
      .references(() => trainingSchools.id),
    examMark: integer('exam_mark'),
    inCourseMark: integer('in_course_mark'),
    finalMark: integer('final_mark'),
    grade: text('grade'),
    outcome: text('outcome').$type<ResultOutcome>().notNull(),
    note: text('note'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('published_results_key').on(t.dietId, t.courseHeaderId, t.candidateId),
    foreignKey({
      name: 'published_results_publication_fk',
      columns: [t.dietId, t.courseHeaderId],
      foreignColumns: [resultPublications.dietId, resultPublications.courseHeaderId],
    }),
    index('published_results_school_idx').on(t.trainingSchoolId, t.dietId),
    // The dashboard's pass rates by school for a diet.
    index('published_results_diet_school_idx').on(t.dietId, t.trainingSchoolId, t.outcome),
  ],
);
