import { and } from 'drizzle-orm';
import type { DocumentCell, DocumentColumn } from '../../../contract/documents';
import type { DocumentBuilder, DocumentScope, Facts } from '../builder';
import { headingOf, surnameFirst } from '../common';
import { candidateByIndex, candidateRows, countCandidates, scopeConditions, type CandidateLine } from './candidateRows';
import { checklistOf, heldOf, type Checklist, type HeldOfCandidate } from './checklist';

/**
 * The documents checklist (ending `doc`): each indexed candidate of a school (and course header) with
 * what their course header needs of them, whether it is held, and whether the board has verified them,
 * so a school can chase what is missing before the board checks, and the board can see why a candidate
 * is still unverified.
 */

const whereOf = (scope: DocumentScope) => and(...scopeConditions(scope));

const courseCertificateOf = (checklist: Checklist) =>
  checklist.courseCertificate ? `${checklist.courseCertificate.label}: ${checklist.courseCertificate.held}` : 'Not needed';

const boardCheckOf = (line: CandidateLine) => (line.verified ? 'Verified' : 'Not verified');

function columnsOf(scope: DocumentScope) {
  const columns: { column: DocumentColumn; cell: (l: CandidateLine, c: Checklist, serial: number) => DocumentCell }[] = [
    { column: { label: 'S/N', width: 0.5, align: 'right' }, cell: (_, __, serial) => String(serial) },
    { column: { label: 'Index number', width: 1.6 }, cell: (l) => l.candidateIndex },
    { column: { label: 'Name', width: 2.2 }, cell: (l) => surnameFirst(l) },
  ];
  if (!scope.courseHeader) columns.push({ column: { label: 'Course header', width: 0.8 }, cell: (l) => l.courseHeaderCode });
  columns.push(
    { column: { label: 'Photo', width: 0.9 }, cell: (_, c) => c.photo },
    { column: { label: 'Prior certificate', width: 1 }, cell: (_, c) => c.priorCertificate },
    { column: { label: "Course header's certificate", width: 1.6 }, cell: (_, c) => courseCertificateOf(c) },
    { column: { label: 'Other documents held', width: 2 }, cell: (_, c) => c.otherUploads.join(', ') || 'None' },
    { column: { label: 'Complete', width: 0.8 }, cell: (_, c) => (c.complete ? 'Yes' : 'No') },
    { column: { label: 'Board check', width: 1 }, cell: (l) => boardCheckOf(l) },
  );
  return columns;
}

function rowFacts(line: CandidateLine, checklist: Checklist): Facts {
  return {
    Name: surnameFirst(line),
    'Index number': line.candidateIndex,
    Photo: checklist.photo,
    'Prior certificate': checklist.priorCertificate,
    "Course header's certificate": courseCertificateOf(checklist),
    'Board check': boardCheckOf(line),
  };
}

const NOTHING_HELD: HeldOfCandidate = { uploads: new Set(), prior: {} as HeldOfCandidate['prior'] };

export const documentsChecklistBuilder: DocumentBuilder = {
  ending: 'doc',
  count: (db, scope) => countCandidates(db, whereOf(scope)),
  async build(db, scope) {
    const columns = columnsOf(scope);
    const rows = await candidateRows(db, scope, whereOf(scope), async (page, before) => {
      const held = await heldOf(
        db,
        page.map((line) => line.id),
      );
      return page.map((line, i) => {
        const checklist = checklistOf(line.courseHeaderCode, held.get(line.id) ?? NOTHING_HELD);
        return {
          key: line.candidateIndex,
          cells: columns.map((c) => c.cell(line, checklist, before + i + 1)),
          facts: rowFacts(line, checklist),
        };
      });
    });
    return {
      heading: headingOf(scope),
      blocks: [
        {
          kind: 'text',
          text: "What each candidate's course header needs: the photo always; the prior certificate's details (certificate, exam year, exam number, exam month) unless the course header is A4, A5 or B5; A4's food hygiene certificate; B5's ND certificate. The board verifies a candidate once it has checked them.",
        },
        {
          kind: 'table',
          columns: columns.map((c) => c.column),
          rows,
          totals: columns.map((_, i) => (i === 0 ? `Total: ${rows.count} candidate${rows.count === 1 ? '' : 's'}` : '')),
        },
      ],
      facts: { Candidates: String(rows.count) },
    };
  },
  async factsOf(db, scope, key) {
    const line = await candidateByIndex(db, scope, whereOf(scope), key);
    if (!line) return null;
    const held = (await heldOf(db, [line.id])).get(line.id) ?? NOTHING_HELD;
    return rowFacts(line, checklistOf(line.courseHeaderCode, held));
  },
};
