import { and, eq, not, type SQL } from 'drizzle-orm';
import type { DocumentCell, DocumentColumn } from '../../../contract/documents';
import { boardDay, formatDate } from '../../../contract/format';
import type { PrintDocumentEnding } from '../../../contract/navigation';
import { candidates } from '../../db/schema';
import type { BuiltBlock, DocumentBuilder, DocumentScope, Facts } from '../builder';
import { headingOf, surnameFirst } from '../common';
import {
  candidateByIndex,
  candidateRows,
  countCandidates,
  courseHeaderOf,
  dateOfBirthOf,
  registeredAt,
  resitAt,
  schoolOf,
  scopeConditions,
  sexOf,
  sittingAt,
  type CandidateLine,
} from './candidateRows';
import { dietOf, HALL_NOTICE } from './dietScope';

/**
 * The six candidate lists: who, of a school and course header (or the whole board), is indexed,
 * verified, not yet verified, and who sits a diet, fresh or to resit. Each row is a candidate, in the
 * hall's order (school, course header, index number); the album layout puts the photo first and leaves
 * a box for the candidate's signature, so an invigilator can check faces and attendance on one sheet.
 */

interface ListDefinition {
  ending: PrintDocumentEnding;
  /** Which candidates of the scope it lists. */
  where(scope: DocumentScope): SQL | undefined;
  /** The row's status, in words. */
  status(line: CandidateLine): string;
  /** The resit entry's papers in a column of their own. */
  papers?: boolean;
  /** About a diet's sitting: the hall's notice. */
  sitting?: boolean;
}

const barredOr = (line: CandidateLine, status: string) =>
  line.sanction ? `${status}; barred by a sanction: ${line.sanction}` : status;

const LISTS: ListDefinition[] = [
  {
    ending: 'indexed-candidate-list',
    where: () => undefined,
    status: (line) => (line.verified ? 'Verified' : 'Not verified'),
  },
  {
    ending: 'verified-candidate-list',
    where: () => eq(candidates.verified, true),
    status: (line) => (line.verifiedAt ? `Verified ${formatDate(boardDay(line.verifiedAt))}` : 'Verified'),
  },
  {
    ending: 'unverified-candidate-list',
    where: () => eq(candidates.verified, false),
    status: () => 'Not verified',
  },
  {
    ending: 'fresh-candidate-list',
    // Fresh: registered for the diet without a resit entry at it (a resit entry is what makes a sitting a resit).
    where: (scope) => and(registeredAt(dietOf(scope).id), not(resitAt(dietOf(scope).id)))!,
    status: (line) => barredOr(line, 'Registered'),
    sitting: true,
  },
  {
    ending: 'resit-candidate-list',
    where: (scope) => resitAt(dietOf(scope).id),
    status: (line) => barredOr(line, line.registered ? 'Resit; registered' : 'Resit'),
    papers: true,
    sitting: true,
  },
  {
    ending: 'candidate-list',
    where: (scope) => sittingAt(dietOf(scope).id),
    status: (line) =>
      barredOr(line, line.resitPapers ? `Resit: ${line.resitPapers.join(', ')}` : 'Fresh'),
    sitting: true,
  },
];

const whereOf = (list: ListDefinition, scope: DocumentScope) => and(...scopeConditions(scope), list.where(scope));

/** The columns of a list: what the heading already fixes (one school, one course header) is left out. */
function columnsOf(list: ListDefinition, scope: DocumentScope) {
  const album = scope.variant === 'album';
  const columns: { column: DocumentColumn; cell: (line: CandidateLine, serial: number) => DocumentCell }[] = [];
  if (album) columns.push({ column: { label: 'Photo', width: 1.3, align: 'center', photo: true }, cell: (l) => ({ photo: l.photo }) });
  columns.push(
    { column: { label: 'S/N', width: 0.5, align: 'right' }, cell: (_, serial) => String(serial) },
    { column: { label: 'Index number', width: 1.6 }, cell: (l) => l.candidateIndex },
    { column: { label: 'Name', width: 2.2 }, cell: (l) => surnameFirst(l) },
    { column: { label: 'Sex', width: 0.7 }, cell: (l) => sexOf(l.gender) },
    { column: { label: 'Date of birth', width: 1 }, cell: (l) => dateOfBirthOf(l) },
  );
  if (!scope.courseHeader) {
    columns.push({ column: { label: 'Course header', width: 1.6 }, cell: (l) => courseHeaderOf(l) });
  }
  if (!scope.school) columns.push({ column: { label: 'Training school', width: 2 }, cell: (l) => schoolOf(l) });
  if (list.papers) {
    columns.push({ column: { label: 'Papers', width: 1.4 }, cell: (l) => (l.resitPapers ?? []).join(', ') });
  }
  columns.push({ column: { label: 'Status', width: 1.3 }, cell: (l) => list.status(l) });
  if (album) columns.push({ column: { label: 'Signature', width: 1.3, blank: true }, cell: () => '' });
  return columns;
}

/** What a row certifies: the name and status it prints (and the resit papers). */
function rowFacts(list: ListDefinition, line: CandidateLine): Facts {
  return {
    Name: surnameFirst(line),
    'Index number': line.candidateIndex,
    Status: list.status(line),
    ...(list.papers ? { Papers: (line.resitPapers ?? []).join(', ') } : {}),
  };
}

function listBuilder(list: ListDefinition): DocumentBuilder {
  return {
    ending: list.ending,
    count: (db, scope) => countCandidates(db, whereOf(list, scope)),
    async build(db, scope) {
      const columns = columnsOf(list, scope);
      const rows = await candidateRows(db, scope, whereOf(list, scope), (page, before) =>
        page.map((line, i) => ({
          key: line.candidateIndex,
          cells: columns.map((c) => c.cell(line, before + i + 1)),
          facts: rowFacts(list, line),
        })),
      );
      const blocks: BuiltBlock[] = [];
      if (list.sitting) blocks.push({ kind: 'notice', text: HALL_NOTICE });
      blocks.push({
        kind: 'table',
        columns: columns.map((c) => c.column),
        rows,
        totals: columns.map((_, i) =>
          i === 0 ? `Total: ${rows.count} candidate${rows.count === 1 ? '' : 's'}` : '',
        ),
      });
      if (!rows.count) blocks.push({ kind: 'text', text: 'No candidates match this choice.' });
      return { heading: headingOf(scope), blocks, facts: { Candidates: String(rows.count) } };
    },
    async factsOf(db, scope, key) {
      const line = await candidateByIndex(db, scope, whereOf(list, scope), key);
      return line ? rowFacts(list, line) : null;
    },
  };
}

export const CANDIDATE_LIST_BUILDERS: DocumentBuilder[] = LISTS.map(listBuilder);
