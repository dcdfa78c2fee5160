/**
 * Bulk indexing (admin): a CSV of candidates, one row a candidate under the candidate form's own field
 * names, and a zip of their photos and certificates. A dry run checks every row exactly as the form is
 * checked (the same validator, the spec's messages) and reports each problem by row and field; then the
 * good rows are indexed in chunks the page asks for one after the other, with progress. A file in the
 * zip belongs to a row by the name in the row's upload column (`photo: ada.jpg`) or by its own name
 * (`3-photo.jpg`: row 3's photo). Rows are numbered from 1, the first under the header. Dates of birth
 * are written as the board writes them, DD/MM/YYYY.
 */

import { CERTIFICATE_FIELDS, IDENTITY_FIELDS, SUBJECT_FIELDS, UPLOAD_FIELDS } from './candidates';

export const BULK_LIMITS = {
  rows: 5000,
  csvBytes: 5 * 1024 * 1024,
  zipBytes: 400 * 1024 * 1024,
  /**
   * What the zip's entries may unpack to, all together, in one read (the dry run, a chunk): 2.5 times
   * the zip's own cap, room for photos and scans that barely compress (server/candidates/zip.ts).
   */
  unpackedBytes: 1_000_000_000,
  /** Entries a zip may hold: one per upload field per row, for the largest batch. */
  zipEntries: 5000 * UPLOAD_FIELDS.length,
  /** Rows a chunk of the import indexes (one request). */
  chunk: 100,
} as const;

/** The CSV's columns, in the template's order: the form's fields, then the uploads (file names). */
export const BULK_COLUMNS = [
  ...IDENTITY_FIELDS,
  ...CERTIFICATE_FIELDS,
  ...SUBJECT_FIELDS,
  ...UPLOAD_FIELDS,
] as const;

/** The template's example row (a made-up candidate who passes every rule). */
export const BULK_EXAMPLE: Readonly<Record<string, string>> = {
  first_name: 'Chiamaka',
  last_name: 'Okonkwo',
  middle_name: 'Ifeoma',
  title: 'Miss',
  school_code: 'SHT-IB',
  date_of_birth: '12/04/2001',
  candidate_category: 'fresh',
  course_header: 'A1',
  marital_status: 'S',
  gender: 'female',
  nationality: 'NG',
  certificate_evaluated: 'WASSCE',
  year_of_certificate_evaluated: '2019',
  exam_number_1: '4250101001',
  exam_month: 'June',
  english: 'B3',
  biology: 'C4',
  chemistry: 'C5',
  mathematics: 'B2',
  photo: 'chiamaka-okonkwo.jpg',
  olevel_certificate_upload: 'chiamaka-okonkwo-waec.pdf',
};

export const BULK_MESSAGES = {
  csvRequired: 'Choose the CSV file of candidates',
  csvNotCsv: 'The candidates file must be a CSV file (.csv) with the template’s header row',
  csvTooLarge: 'The CSV file is too large (5 MB at most)',
  csvEmpty: 'The CSV file has no candidates under its header row',
  tooManyRows: `A file holds ${BULK_LIMITS.rows} candidates at most; split it into several`,
  unknownColumns: (columns: string[]) => `These columns are not the template’s: ${columns.join(', ')}`,
  zipNotZip: 'The files must be one .zip file',
  zipTooLarge: 'The zip file is too large (400 MB at most)',
  zipTooManyFiles: 'The zip holds too many files (50,000 at most)',
  zipUnpacksTooLarge:
    'The files in the zip unpack to too much (1,000 MB at most); split them into several batches',
  fileUnreadable: (name: string) => `The file ${name} in the zip cannot be unpacked`,
  fileMissing: (name: string) => `There is no file named ${name} in the zip`,
  duplicateInFile: 'This candidate is already in the file, on an earlier row',
  checked: (good: number, rows: number) =>
    good === rows
      ? `All ${rows} rows can be indexed.`
      : `${good} of ${rows} rows can be indexed; the others need fixing.`,
  notFound: 'There is no such bulk indexing batch.',
  rangeInvalid: 'Say which rows to import: from 1, up to 200 at a time',
  imported: (count: number) => `${count} candidate${count === 1 ? '' : 's'} indexed.`,
} as const;

/** One problem of one row, as the form would show it beside the field. */
export interface BulkProblem {
  row: number;
  field: string;
  message: string;
}

export interface BulkReport {
  id: number;
  rows: number;
  /** Rows the dry run found nothing wrong with. */
  good: number;
  problems: BulkProblem[];
  /** Rows indexed so far, with their index numbers. */
  indexed: { row: number; candidate_index: string }[];
  /** Rows the import has gone through (the next chunk starts after it). */
  imported_through: number;
  finished: boolean;
}
