import { and, asc, count, eq } from 'drizzle-orm';
import { DOCUMENT_PARAM_LABELS as L, type DocumentColumn } from '../../../contract/documents';
import type { PrintDocumentEnding } from '../../../contract/navigation';
import type { Database } from '../../db/client';
import { candidates, courseHeaders, registrations } from '../../db/schema';
import type { BuiltBlock, BuiltDocument, BuiltRow, DocumentBuilder, DocumentScope } from '../builder';
import { headingOf, surnameFirst } from '../common';
import { required } from './figures';

/**
 * The examiners' mark sheets that the portal cannot fill: practical, oral, research project (also
 * course header AA2's) and project study. Each lists a school's candidates of a course header
 * registered for the diet, SURNAME first in index-number order, with empty boxes for the examiners'
 * hands, and says plainly that the portal holds none of these marks: nothing on them is invented.
 */

/** The course header whose research project sheet is its own document (spec: research-project-aa2). */
const AA2 = 'AA2';

interface SheetLayout {
  ending: PrintDocumentEnding;
  /** The boxes for the examiners, after S/N, index number and name. */
  boxes: string[];
  /** What the portal does not hold, said on the paper. */
  notice: string;
  /** Why the boxes are what they are, when that is a choice (a project's criteria). */
  note?: string;
  signatures: string[];
}

const EXAMINERS = ['First examiner', 'Second examiner', 'Zonal leader'];

const PROJECT_NOTICE =
  'The portal holds no project marks and no marking scheme for projects: the boxes are for the examiners, who give each criterion its mark by the board’s scheme.';
const RESEARCH_CRITERIA = [
  'Intro & literature',
  'Methods',
  'Results & analysis',
  'Discussion',
  'Presentation',
];
const RESEARCH_NOTE =
  'Criteria: the parts of a research report as examiners read it: introduction and review of the literature; methods; results and their analysis; discussion and conclusions; presentation and references.';

const LAYOUTS = {
  practical: {
    ending: 'practical-marksheet',
    boxes: ['First examiner’s mark', 'Second examiner’s mark', 'Agreed mark', 'Initials'],
    notice:
      'The portal holds no practical marks: the boxes are for the examiners’ hands. Nothing is filled in from the portal.',
    signatures: EXAMINERS,
  },
  oral: {
    ending: 'oral-marksheet',
    boxes: ['First examiner’s mark', 'Second examiner’s mark', 'Agreed mark', 'Initials'],
    notice:
      'The portal holds no oral marks: the boxes are for the examiners’ hands. Nothing is filled in from the portal.',
    signatures: EXAMINERS,
  },
  research: {
    ending: 'research-project',
    boxes: [...RESEARCH_CRITERIA, 'Total', 'Initials'],
    notice: PROJECT_NOTICE,
    note: RESEARCH_NOTE,
    signatures: EXAMINERS,
  },
  researchAa2: {
    ending: 'research-project-aa2',
    boxes: [...RESEARCH_CRITERIA, 'Total', 'Initials'],
    notice: PROJECT_NOTICE,
    note: RESEARCH_NOTE,
    signatures: EXAMINERS,
  },
  projectStudy: {
    ending: 'project-study',
    boxes: [
      'Problem & objectives',
      'Fieldwork & data',
      'Analysis',
      'Recommendations',
      'Report',
      'Total',
      'Initials',
    ],
    notice: PROJECT_NOTICE,
    note: 'Criteria: the stages of a project study in the field: the problem and its objectives; fieldwork and the data gathered; their analysis; the recommendations drawn; the written report.',
    signatures: EXAMINERS,
  },
} satisfies Record<string, SheetLayout>;

interface Cohort {
  dietId: number;
  schoolId: number;
  courseHeaderId: number;
}

/** A school's candidates of a course header registered for the diet. */
const registeredIn = (cohort: Cohort) =>
  and(
    eq(registrations.dietId, cohort.dietId),
    eq(registrations.regStatus, 'registered'),
    eq(candidates.trainingSchoolId, cohort.schoolId),
    eq(candidates.courseHeaderId, cohort.courseHeaderId),
  );

async function countCohort(db: Database, cohort: Cohort): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .where(registeredIn(cohort));
  return row.total;
}

async function cohortRows(db: Database, cohort: Cohort, boxes: number): Promise<BuiltRow[]> {
  const people = await db
    .select({
      candidateIndex: candidates.candidateIndex,
      first_name: candidates.first_name,
      middle_name: candidates.middle_name,
      last_name: candidates.last_name,
    })
    .from(registrations)
    .innerJoin(candidates, eq(candidates.id, registrations.candidateId))
    .where(registeredIn(cohort))
    .orderBy(asc(candidates.candidateIndex));
  return people.map((person, i) => {
    const name = surnameFirst(person);
    return {
      key: person.candidateIndex,
      cells: [String(i + 1), person.candidateIndex, name, ...Array<string>(boxes).fill('')],
      facts: { Name: name, 'Index number': person.candidateIndex },
    };
  });
}

const columnsOf = (layout: SheetLayout): DocumentColumn[] => [
  { label: 'S/N', align: 'right', width: 0.5 },
  { label: 'Index number', width: 2 },
  { label: 'Name', width: 3 },
  ...layout.boxes.map((label): DocumentColumn => ({ label, align: 'center', blank: true })),
];

async function sheetBlocks(db: Database, layout: SheetLayout, cohort: Cohort) {
  const rows = await cohortRows(db, cohort, layout.boxes.length);
  const blocks: BuiltBlock[] = [{ kind: 'notice', text: layout.notice }];
  if (layout.note) blocks.push({ kind: 'text', text: layout.note });
  if (!rows.length) {
    blocks.push({
      kind: 'notice',
      text: 'No candidate of this school and course header is registered for this diet.',
    });
  }
  blocks.push({ kind: 'table', columns: columnsOf(layout), rows });
  blocks.push({ kind: 'signatures', labels: layout.signatures });
  return { blocks, facts: { Candidates: String(rows.length) } };
}

/** A sheet of the course header chosen. */
function sheetBuilder(layout: SheetLayout): DocumentBuilder {
  const cohortOf = (scope: DocumentScope): Cohort => ({
    dietId: required(scope, 'diet').id,
    schoolId: required(scope, 'school').id,
    courseHeaderId: required(scope, 'courseHeader').id,
  });
  return {
    ending: layout.ending,
    count: (db, scope) => countCohort(db, cohortOf(scope)),
    async build(db, scope): Promise<BuiltDocument> {
      const { blocks, facts } = await sheetBlocks(db, layout, cohortOf(scope));
      return { heading: headingOf(scope), blocks, facts };
    },
  };
}

async function aa2Of(db: Database) {
  const [header] = await db
    .select({ id: courseHeaders.id, code: courseHeaders.code, title: courseHeaders.title })
    .from(courseHeaders)
    .where(eq(courseHeaders.code, AA2));
  return header ?? null;
}

/** Course header AA2's research project sheet: the board may have no such course header. */
const researchProjectAa2: DocumentBuilder = {
  ending: 'research-project-aa2',
  async count(db, scope) {
    const header = await aa2Of(db);
    if (!header) return 0;
    return countCohort(db, {
      dietId: required(scope, 'diet').id,
      schoolId: required(scope, 'school').id,
      courseHeaderId: header.id,
    });
  },
  async build(db, scope): Promise<BuiltDocument> {
    const header = await aa2Of(db);
    const layout = LAYOUTS.researchAa2;
    if (!header) {
      return {
        heading: headingOf(scope, { label: L.course_header, value: `${AA2} (not held by the board)` }),
        blocks: [
          {
            kind: 'notice',
            text: `The board has no course header ${AA2}: there are no ${AA2} candidates to list. Print the research project sheet of another course header instead.`,
          },
        ],
        facts: { Candidates: '0' },
      };
    }
    const cohort = {
      dietId: required(scope, 'diet').id,
      schoolId: required(scope, 'school').id,
      courseHeaderId: header.id,
    };
    const { blocks, facts } = await sheetBlocks(db, layout, cohort);
    return {
      heading: headingOf(scope, { label: L.course_header, value: `${header.code} ${header.title}` }),
      blocks,
      facts,
    };
  },
};

export const MARK_SHEET_BUILDERS: DocumentBuilder[] = [
  sheetBuilder(LAYOUTS.practical),
  sheetBuilder(LAYOUTS.oral),
  sheetBuilder(LAYOUTS.research),
  researchProjectAa2,
  sheetBuilder(LAYOUTS.projectStudy),
];
