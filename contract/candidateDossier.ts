import type { RegStatus, UploadField } from './candidates';
import { type PrintDocumentEnding } from './navigation';
import { PRINT_DOCUMENT_PREFIX } from './paths';
import type { FeeKind, PaymentStatus } from './payments';
import { RESULT_OUTCOME_LABELS, type ResultOutcome } from './scores';

/**
 * A candidate's record page (issue 25, item 6): everything the board holds about one candidate, read in
 * one call. `CandidateRecord` (contract/candidates.ts) is the index form's record, what an edit sends
 * back; this is the history around it: the documents and their check, registration, payments, offences
 * and results per diet, and the papers about the candidate the caller may print.
 */

export interface CandidateDossier {
  id: number;
  candidate_index: string;
  /**
   * The photo to show, as a file key (served at /files/<key>): the small print photo (a JPEG of at most
   * 240×300) when one is made, else the uploaded original; null when no photo is stored. The original
   * stays in `documents.uploads`.
   */
  photo: string | null;
  identity: {
    title: string | null;
    first_name: string;
    middle_name: string | null;
    last_name: string;
    /** 'female' or 'male', as the form stores it. */
    sex: string;
    /** YYYY-MM-DD. */
    date_of_birth: string;
    nationality: { code: string; name: string };
    /** The form's code (contract/constants.ts MARITAL_STATUSES). */
    marital_status: string;
    /** The form's code (contract/candidates.ts CANDIDATE_CATEGORIES). */
    category: string;
    school: { id: number; code: string; name: string };
    course_header: { code: string; title: string };
    /** The year the candidate was indexed in (Lagos time), as the index number carries it. */
    year: number;
    indexed_at: string;
  };
  documents: {
    /** Every upload field of the form, in the form's order. */
    uploads: DossierUpload[];
    /** The board's check of the candidate's documents (one mark for them all). */
    verification: { verified: boolean; by: string | null; at: string | null };
  };
  /** A row a diet the candidate has been registered or unregistered for, newest diet first. */
  registrations: DossierRegistration[];
  /** Every payment that lists the candidate, newest first, whatever its status. */
  payments: DossierPayment[];
  /** Offences recorded against the candidate and still on the list (a removed one was an error). */
  offences: DossierOffence[];
  /** Published results only, newest diet first; a withdrawn publication is shown as withdrawn. */
  results: DossierResult[];
  /** The diet current for registration, if any (its photocard is the one offered). */
  current_diet: { code: string; name: string } | null;
  /** The documents about this candidate the caller may print, each with its print page's address. */
  printable: DossierPrintable[];
}

export interface DossierUpload {
  field: UploadField;
  /** The stored file's key, or null: missing. */
  key: string | null;
  content_type: string | null;
  /** Whether the candidate's course header requires it (the photo always; A4 and B5 their own). */
  required: boolean;
}

export interface DossierRegistration {
  diet: { code: string; name: string };
  reg_status: RegStatus;
  /** The diet current for registration. */
  current: boolean;
  /** When the status was last set. */
  changed_at: string;
}

export interface DossierPayment {
  reference: string;
  fee: { title: string; kind: FeeKind; diet: string };
  /** The candidate's share of the payment, and the whole payment, in kobo. */
  amount_kobo: number;
  payment_kobo: number;
  status: PaymentStatus;
  /** The payment counts for this candidate (settled and credited). */
  credited: boolean;
  receipt_number: string | null;
  /** When it was paid, or else when it was started. */
  date: string;
}

export interface DossierOffence {
  id: number;
  diet: { code: string; name: string };
  offence: string;
  sanction: string;
  /** How long the sanction runs, in words (contract/offenders.ts sanctionTerm). */
  term: string;
  /** In force now: it covers the diet current for registration, or (by dates) runs today. */
  in_force: boolean;
  recorded_at: string;
}

export type DossierResult =
  | {
      status: 'published';
      diet: { code: string; name: string };
      course_header: string;
      exam_mark: string;
      in_course_mark: string;
      final_mark: string;
      grade: string;
      outcome: ResultOutcome;
      published_at: string;
    }
  | {
      /** The board withdrew this publication: its marks are no longer shown to anyone. */
      status: 'withdrawn';
      diet: { code: string; name: string };
      course_header: string;
      withdrawn_at: string;
    };

/**
 * A result's course header, marks, grade and outcome in words, as the record page and the printed
 * record (candidate-info) both show them: a withdrawn publication's marks blank, its outcome `withdrawn`.
 */
export function resultCells(row: DossierResult, withdrawn = 'Withdrawn'): string[] {
  return row.status === 'withdrawn'
    ? [row.course_header, '', '', '', '', withdrawn]
    : [
        row.course_header,
        row.exam_mark,
        row.in_course_mark,
        row.final_mark,
        row.grade,
        RESULT_OUTCOME_LABELS[row.outcome],
      ];
}

export interface DossierPrintable {
  ending: PrintDocumentEnding;
  title: string;
  /** The print page, e.g. /print-document/candidate-info?candidate=WHB%2F26%2FA4%2F000123. */
  href: string;
}

/** The documents about one candidate, in the order the page offers them. */
export const CANDIDATE_DOCUMENTS = ['candidate-info', 'candidate-index-form', 'photocard'] as const;

/** A print page's address with its query (the keys of contract/documents.validators.ts). */
export function printPageHref(ending: PrintDocumentEnding, query: Record<string, string>): string {
  return `${PRINT_DOCUMENT_PREFIX}${ending}?${new URLSearchParams(query).toString()}`;
}
