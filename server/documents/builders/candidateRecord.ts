import { and, eq } from 'drizzle-orm';
import { CANDIDATE_CATEGORIES } from '../../../contract/candidates';
import { MARITAL_STATUSES } from '../../../contract/constants';
import { formatDate } from '../../../contract/format';
import { PRINT_PHOTO_FIELD } from '../../candidates/uploads';
import { loadRecord, type LoadedRecord } from '../../candidates/records';
import type { Database } from '../../db/client';
import { files, nationalities } from '../../db/schema';
import type { DocumentCell } from '../../../contract/documents';
import type { BuiltBlock, BuiltRow, DocumentScope } from '../builder';
import { surnameFirst } from '../common';
import { sexOf } from './candidateRows';

/**
 * One candidate's record as the index form and the information sheet print it: the stored record
 * (server/candidates/records.ts, the same reading the record page gets), its small print photo, and the
 * nationality's name.
 */

interface PrintedRecord {
  loaded: LoadedRecord;
  photo: string | null;
  nationality: string;
}

/** The chosen candidate of a document that requires one (resolved by the print pipeline first). */
export async function recordOf(db: Database, scope: DocumentScope): Promise<PrintedRecord> {
  if (!scope.candidate) throw new Error('This document is built for a candidate, and none was resolved.');
  const loaded = await loadRecord(db, scope.candidate.id);
  if (!loaded) throw new Error(`Candidate ${scope.candidate.candidateIndex} is not there any more.`);
  const [photo] = await db
    .select({ key: files.key })
    .from(files)
    .where(and(eq(files.candidateId, scope.candidate.id), eq(files.field, PRINT_PHOTO_FIELD)));
  const code = loaded.record.fields.nationality ?? '';
  const [nationality] = await db
    .select({ name: nationalities.name })
    .from(nationalities)
    .where(eq(nationalities.code, code));
  return { loaded, photo: photo?.key ?? null, nationality: nationality?.name ?? code };
}

/** Rows of a record's small tables: nothing to find again by key, since the paper certifies its fields. */
export const plainRows = (rows: DocumentCell[][]): BuiltRow[] =>
  rows.map((cells, i) => ({ key: String(i + 1), cells, facts: {} }));

const labelOf = (choices: readonly { code: string; label: string }[], code: string | null) =>
  choices.find((choice) => choice.code === code)?.label ?? code ?? '';

/** The photo beside the name and index number, then every identity field as the form has them. */
export function identityBlocks({ loaded, photo, nationality }: PrintedRecord): BuiltBlock[] {
  const { record } = loaded;
  const f = record.fields;
  return [
    {
      kind: 'table',
      columns: [
        { label: 'Photo', width: 1, align: 'center', photo: true },
        { label: 'Index number', width: 1.6 },
        { label: 'Name', width: 2.4 },
      ],
      rows: plainRows([[{ photo }, record.candidate_index, surnameFirst(record)]]),
    },
    {
      kind: 'fields',
      title: 'Identity',
      fields: [
        { label: 'Index number', value: record.candidate_index },
        { label: 'Title', value: f.title ?? '' },
        { label: 'Surname', value: record.last_name.toLocaleUpperCase('en-NG') },
        { label: 'First name', value: record.first_name },
        { label: 'Middle name', value: record.middle_name ?? '' },
        { label: 'Date of birth', value: formatDate(f.date_of_birth ?? '') },
        { label: 'Sex', value: sexOf(f.gender ?? '') },
        { label: 'Marital status', value: labelOf(MARITAL_STATUSES, f.marital_status) },
        { label: 'Nationality', value: nationality },
        { label: 'Candidate category', value: labelOf(CANDIDATE_CATEGORIES, f.candidate_category) },
        { label: 'Training school', value: `${record.school.name} (${record.school.code})` },
        { label: 'Course header', value: `${record.course_header.code} ${record.course_header.title}` },
        { label: 'Year indexed', value: String(record.year) },
        { label: 'Verified by the board', value: record.verified ? 'Yes' : 'Not yet' },
      ],
    },
  ];
}

/** What a record's paper certifies of the person, whatever else it shows. */
export function identityFacts({ loaded }: PrintedRecord): Record<string, string> {
  const { record } = loaded;
  return {
    Name: surnameFirst(record),
    'Index number': record.candidate_index,
    'Date of birth': formatDate(record.fields.date_of_birth ?? ''),
    'Training school': `${record.school.name} (${record.school.code})`,
    'Course header': `${record.course_header.code} ${record.course_header.title}`,
    Verified: record.verified ? 'Yes' : 'Not yet',
  };
}
