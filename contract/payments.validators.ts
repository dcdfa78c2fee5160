import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { DIET_CODE_PATTERN } from './diets';
import { formValidator } from './formValidator';
import {
  FEE_BASES,
  FEE_KINDS,
  FEE_STATUSES,
  FEE_TITLE_MAX,
  ISSUE_NOTE_MAX,
  PAYMENT_MAX_CANDIDATES,
  PAYMENT_MESSAGES as M,
  nairaToKobo,
} from './payments';

/**
 * The fee form, a school's choice of what to pay for, and a reconciliation note: run in the browser
 * and again by the server on every call.
 */

/** Naira as typed; taken as kobo (integers: money is never a float here). */
const naira = vine.createRule((value, _options, field: FieldContext) => {
  if (typeof value !== 'string' || nairaToKobo(value) === null) field.report(M.amountInvalid, 'naira', field);
});

/** Course header codes, one a line or comma-separated (the form's checkboxes). */
const codesOf = (value: string) => [
  ...new Set(
    value
      .split(/[\n,]/)
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
  ),
];
const codeList = vine.createRule((value, _options, field: FieldContext) => {
  const codes = typeof value === 'string' ? codesOf(value) : null;
  if (!codes || codes.length > 100 || codes.some((code) => !/^[A-Z][0-9]{1,2}$/.test(code))) {
    field.report(M.courseHeadersInvalid, 'codeList', field);
  }
});

const feeSchema = vine.object({
  title: vine.string().trim().minLength(1).maxLength(FEE_TITLE_MAX),
  kind: vine.enum(FEE_KINDS),
  basis: vine.enum(FEE_BASES),
  amount: vine
    .string()
    .trim()
    .use(naira())
    .transform((value) => nairaToKobo(value)!),
  diet: vine.string().trim().toUpperCase().maxLength(20).regex(DIET_CODE_PATTERN),
  course_headers: vine.string().use(codeList()).transform(codesOf).optional(),
});

export const feeValidator = formValidator(feeSchema, {
  'title.required': M.titleRequired,
  'title.string': M.titleRequired,
  'title.minLength': M.titleRequired,
  'title.maxLength': M.tooLong,
  'kind.required': M.kindInvalid,
  'kind.enum': M.kindInvalid,
  'basis.required': M.basisInvalid,
  'basis.enum': M.basisInvalid,
  'amount.required': M.amountRequired,
  'amount.string': M.amountInvalid,
  'diet.required': M.dietRequired,
  'diet.string': M.dietRequired,
  'diet.maxLength': M.dietUnknown,
  'diet.regex': M.dietUnknown,
  'course_headers.string': M.courseHeadersInvalid,
});

export const feeStatusValidator = formValidator(vine.object({ status: vine.enum(FEE_STATUSES) }), {
  required: M.statusInvalid,
  enum: M.statusInvalid,
});

/** A school's choice: a fee, and either its chosen candidates or all its unpaid registered ones. */
const choiceSchema = vine.object({
  fee_id: vine.number().withoutDecimals().positive().max(2_147_483_647),
  candidate_ids: vine
    .array(vine.number().withoutDecimals().positive().max(2_147_483_647))
    .maxLength(PAYMENT_MAX_CANDIDATES)
    .distinct()
    .optional(),
  all: vine.boolean({ strict: true }).optional(),
});

export const paymentChoiceValidator = formValidator(choiceSchema, {
  'fee_id.required': M.feeChoose,
  'fee_id.number': M.feeChoose,
  'fee_id.withoutDecimals': M.feeChoose,
  'fee_id.positive': M.feeChoose,
  'fee_id.max': M.feeChoose,
  'candidate_ids.array': M.candidatesInvalid,
  'candidate_ids.maxLength': M.tooManyCandidates,
  'candidate_ids.distinct': M.candidatesInvalid,
  'candidate_ids.*.number': M.candidatesInvalid,
  'candidate_ids.*.withoutDecimals': M.candidatesInvalid,
  'candidate_ids.*.positive': M.candidatesInvalid,
  'candidate_ids.*.max': M.candidatesInvalid,
  'all.boolean': M.candidatesInvalid,
});

export const issueResolutionValidator = formValidator(
  vine.object({ note: vine.string().trim().minLength(1).maxLength(ISSUE_NOTE_MAX) }),
  {
    'note.required': M.noteRequired,
    'note.string': M.noteRequired,
    'note.minLength': M.noteRequired,
    'note.maxLength': M.tooLong,
  },
);
