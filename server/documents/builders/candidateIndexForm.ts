import {
  needsPriorCertificate,
  SUBJECT_FIELDS,
  SUBJECT_LABELS,
  UPLOAD_FIELDS,
  UPLOAD_LABELS,
  type UploadField,
} from '../../../contract/candidates';
import type { DocumentBuilder } from '../builder';
import { headingOf } from '../common';
import { identityBlocks, identityFacts, plainRows, recordOf } from './candidateRecord';
import { uploadRequired } from './checklist';

/**
 * The candidate index form: the whole record as the board holds it (identity, prior certificates,
 * subject grades, and which uploads are held), for the candidate to check and sign and the school to
 * countersign, so a wrong name or date of birth is caught before it reaches a certificate.
 */

/** The prior certificates as the form numbers them: the first, then the second. */
const CERTIFICATES = [
  { certificate: 'certificate_evaluated', year: 'year_of_certificate_evaluated', number: 'exam_number_1', month: 'exam_month' },
  { certificate: 'certificate_evaluated_2', year: 'year_of_certificate_evaluated_2', number: 'exam_number_2', month: 'exam_month_2' },
] as const;

const NOT_GIVEN = 'Not given';

export const candidateIndexFormBuilder: DocumentBuilder = {
  ending: 'candidate-index-form',
  count: async () => 1,
  async build(db, scope) {
    const printed = await recordOf(db, scope);
    const { record, uploads } = printed.loaded;
    const f = record.fields;
    const courseHeader = record.course_header.code;
    const subjects = SUBJECT_FIELDS.filter((subject) => f[subject]);
    const heldOf = (field: UploadField) =>
      uploads[field] ? 'Uploaded' : uploadRequired(courseHeader, field) ? 'Missing' : 'Not uploaded';
    return {
      heading: headingOf(scope),
      blocks: [
        ...identityBlocks(printed),
        {
          kind: 'fields',
          title: needsPriorCertificate(courseHeader)
            ? 'Prior certificates'
            : `Prior certificates (not needed for course header ${courseHeader})`,
          fields: CERTIFICATES.flatMap((c, i) => [
            { label: `Certificate ${i + 1}`, value: f[c.certificate] ?? NOT_GIVEN },
            { label: `Exam year ${i + 1}`, value: f[c.year] ?? NOT_GIVEN },
            { label: `Exam number ${i + 1}`, value: f[c.number] ?? NOT_GIVEN },
            { label: `Exam month ${i + 1}`, value: f[c.month] ?? NOT_GIVEN },
          ]),
        },
        subjects.length
          ? {
              kind: 'table',
              title: 'Subject grades',
              columns: [{ label: 'Subject', width: 2 }, { label: 'Grade' }],
              rows: plainRows(subjects.map((subject) => [SUBJECT_LABELS[subject], f[subject] ?? ''])),
            }
          : { kind: 'text', text: 'Subject grades: none given.' },
        {
          kind: 'table',
          title: 'Documents uploaded',
          columns: [{ label: 'Document', width: 2 }, { label: 'Needed' }, { label: 'Held' }],
          rows: plainRows(
            UPLOAD_FIELDS.map((field) => [
              UPLOAD_LABELS[field],
              uploadRequired(courseHeader, field) ? 'Required' : 'If held',
              heldOf(field),
            ]),
          ),
        },
        {
          kind: 'text',
          text: 'I confirm that the particulars above are mine and correct, and that the documents uploaded are genuine.',
        },
        {
          kind: 'signatures',
          labels: ['Candidate: signature and date', 'Head of the training school: signature, stamp and date'],
        },
      ],
      facts: {
        ...identityFacts(printed),
        ...Object.fromEntries(UPLOAD_FIELDS.map((field) => [UPLOAD_LABELS[field], heldOf(field)])),
      },
    };
  },
};
