import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { DIET_CODE_PATTERN } from './diets';
import { formValidator } from './formValidator';
import { ID_RULES, idField } from './input';
import {
  PAPER_NAME_MAX,
  QUESTIONS,
  QUESTION_MAX_LIMIT,
  REASON_MAX,
  SCORE_MESSAGES as M,
  SEMESTERS,
  SHEET_KINDS,
  parseMark,
  type GradeBand,
} from './scores';

/**
 * The score forms (papers, result rules, sheets) and a grid row's marks: run in the browser as they are
 * typed and again by the server on every call. A question's maximum is known only with its paper, so
 * the server checks each mark against it after this (server/scores/marks.ts), with the same sentence.
 */

const markText = (message: string) =>
  vine.createRule((value, _options, field: FieldContext) => {
    if (typeof value !== 'string' || parseMark(value) === undefined) field.report(message, 'mark', field);
  });
const upTo = (limit: number, message: string) =>
  vine.createRule((value, _options, field: FieldContext) => {
    const tenths = typeof value === 'string' ? parseMark(value) : undefined;
    if (tenths === undefined || tenths === null || tenths > limit * 10) field.report(message, 'upTo', field);
  });

/** The messages of a diet code and a course header code, whichever rule refuses them. */
const DIET_MESSAGES = Object.fromEntries(
  ['required', 'string', 'maxLength', 'regex'].map((r) => [`diet.${r}`, M.dietUnknown]),
);
const COURSE_MESSAGES = Object.fromEntries(
  ['required', 'string', 'maxLength', 'regex'].map((r) => [`course_header.${r}`, M.courseHeaderNotFound]),
);

const courseCode = () =>
  vine
    .string()
    .trim()
    .toUpperCase()
    .maxLength(3)
    .regex(/^[A-Z][0-9]{1,2}$/);
const dietCode = () => vine.string().trim().toUpperCase().maxLength(20).regex(DIET_CODE_PATTERN);

const questionMax = () => vine.string().use(upTo(QUESTION_MAX_LIMIT, M.questionMaxInvalid)());

const paperSchema = vine.object({
  course_header: courseCode(),
  name: vine.string().trim().minLength(1).maxLength(PAPER_NAME_MAX),
  q1_max: questionMax(),
  q2_max: questionMax(),
  q3_max: questionMax(),
  q4_max: questionMax(),
  q5_max: questionMax(),
  tolerance_question: vine.string().use(upTo(QUESTION_MAX_LIMIT, M.toleranceInvalid)()),
  tolerance_total: vine.string().use(upTo(QUESTION_MAX_LIMIT * 5, M.toleranceInvalid)()),
});

export const paperValidator = formValidator(paperSchema, {
  ...COURSE_MESSAGES,
  'name.required': M.paperNameRequired,
  'name.string': M.paperNameRequired,
  'name.minLength': M.paperNameRequired,
  'name.maxLength': M.tooLong,
  ...Object.fromEntries(
    QUESTIONS.flatMap((q) => [
      [`${q}_max.required`, M.questionMaxInvalid],
      [`${q}_max.string`, M.questionMaxInvalid],
    ]),
  ),
  'tolerance_question.required': M.toleranceInvalid,
  'tolerance_question.string': M.toleranceInvalid,
  'tolerance_total.required': M.toleranceInvalid,
  'tolerance_total.string': M.toleranceInvalid,
});

/** 'A 70, B 60, C 50, F 0' (or one a line): highest first, the last from 0. */
export function parseGradeBands(text: string): GradeBand[] | null {
  const parts = text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length || parts.length > 12) return null;
  const bands: GradeBand[] = [];
  for (const part of parts) {
    const match = /^([A-Za-z][A-Za-z0-9+-]{0,3})\s*[:=]?\s*(\d{1,3})$/.exec(part);
    if (!match) return null;
    const min = Number(match[2]);
    if (min > 100) return null;
    if (bands.length && bands[bands.length - 1].min <= min) return null;
    bands.push({ grade: match[1].toUpperCase(), min });
  }
  return bands[bands.length - 1].min === 0 ? bands : null;
}

export const formatGradeBands = (bands: GradeBand[]) => bands.map((b) => `${b.grade} ${b.min}`).join(', ');

const percent = () =>
  vine
    .string()
    .trim()
    .regex(/^\d{1,3}$/)
    .transform(Number);
const bandsRule = vine.createRule((value, _options, field: FieldContext) => {
  if (typeof value !== 'string' || !parseGradeBands(value)) field.report(M.bandsInvalid, 'bands', field);
});

export const resultRulesValidator = formValidator(
  vine.object({
    in_course_weight: percent(),
    pass_mark: percent(),
    grade_bands: vine
      .string()
      .maxLength(200)
      .use(bandsRule())
      .transform((value) => parseGradeBands(value)!),
  }),
  {
    'in_course_weight.required': M.weightInvalid,
    'in_course_weight.string': M.weightInvalid,
    'in_course_weight.regex': M.weightInvalid,
    'pass_mark.required': M.passMarkInvalid,
    'pass_mark.string': M.passMarkInvalid,
    'pass_mark.regex': M.passMarkInvalid,
    'grade_bands.required': M.bandsInvalid,
    'grade_bands.string': M.bandsInvalid,
    'grade_bands.maxLength': M.bandsInvalid,
  },
);

const idMessages = (field: string, message: string) =>
  Object.fromEntries(ID_RULES.map((rule) => [`${field}.${rule}`, message]));

export const sheetValidator = formValidator(
  vine.object({
    kind: vine.enum(SHEET_KINDS),
    diet: dietCode(),
    course_header: courseCode(),
    paper_id: idField().optional(),
    school: vine.string().trim().toUpperCase().maxLength(30).optional(),
    marker_one: idField(),
    marker_two: idField().optional(),
  }),
  {
    'kind.required': M.choose,
    'kind.enum': M.choose,
    ...DIET_MESSAGES,
    ...COURSE_MESSAGES,
    'school.string': M.schoolUnknown,
    'school.maxLength': M.schoolUnknown,
    ...idMessages('paper_id', M.paperRequired),
    ...idMessages('marker_one', M.markersRequired),
    ...idMessages('marker_two', M.markersRequired),
  },
);

export const markerThreeValidator = formValidator(vine.object({ marker_three: idField() }), {
  ...idMessages('marker_three', M.markerUnknown),
});

const reasonField = () => vine.string().trim().maxLength(REASON_MAX).optional();
const reasonMessages = {
  'reason.string': M.reasonRequired,
  'reason.maxLength': M.reasonTooLong,
};
const versionField = () => vine.number({ strict: true }).withoutDecimals().range([0, 2_147_483_647]);
const versionMessages = {
  'version.required': M.staleRow,
  'version.number': M.staleRow,
  'version.withoutDecimals': M.staleRow,
  'version.range': M.staleRow,
};

/** One row of a marker's grid: q1 to q5 as typed (empty: no mark yet), absent, the version loaded. */
export const markRowValidator = formValidator(
  vine.object({
    q1: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    q2: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    q3: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    q4: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    q5: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    absent: vine.boolean({ strict: true }).optional(),
    version: versionField(),
    reason: reasonField(),
  }),
  {
    ...Object.fromEntries(
      QUESTIONS.flatMap((q) => [
        [`${q}.string`, M.markInvalid],
        [`${q}.maxLength`, M.markInvalid],
      ]),
    ),
    'absent.boolean': M.markInvalid,
    ...versionMessages,
    ...reasonMessages,
  },
);

/** One in-course row: the three semester scores as typed, each out of 100. */
export const inCourseRowValidator = formValidator(
  vine.object({
    first_semester_score: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    second_semester_score: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    third_semester_score: vine.string().maxLength(8).use(markText(M.markInvalid)()).nullable().optional(),
    version: versionField(),
    reason: reasonField(),
  }),
  {
    ...Object.fromEntries(
      SEMESTERS.flatMap((s) => [
        [`${s}.string`, M.markInvalid],
        [`${s}.maxLength`, M.markInvalid],
      ]),
    ),
    ...versionMessages,
    ...reasonMessages,
  },
);

export const reasonValidator = formValidator(
  vine.object({ reason: vine.string().trim().minLength(1).maxLength(REASON_MAX) }),
  {
    'reason.required': M.reasonRequired,
    'reason.string': M.reasonRequired,
    'reason.minLength': M.reasonRequired,
    'reason.maxLength': M.reasonTooLong,
  },
);

/** A diet and course header (compute, publish, withdraw). */
export const publicationValidator = formValidator(
  vine.object({ diet: dietCode(), course_header: courseCode() }),
  {
    ...DIET_MESSAGES,
    ...COURSE_MESSAGES,
  },
);

/** A withdrawal: the diet and course header, and why (required, audited). */
export const withdrawValidator = formValidator(
  vine.object({
    diet: dietCode(),
    course_header: courseCode(),
    reason: vine.string().trim().minLength(1).maxLength(REASON_MAX),
  }),
  {
    ...DIET_MESSAGES,
    ...COURSE_MESSAGES,
    'reason.required': M.withdrawReasonRequired,
    'reason.string': M.withdrawReasonRequired,
    'reason.minLength': M.withdrawReasonRequired,
    'reason.maxLength': M.reasonTooLong,
  },
);

export const holdValidator = formValidator(
  vine.object({
    diet: dietCode(),
    candidate_index: vine.string().trim().toUpperCase().maxLength(40),
    reason: vine.string().trim().minLength(1).maxLength(REASON_MAX),
  }),
  {
    ...DIET_MESSAGES,
    'candidate_index.required': M.candidateUnknown,
    'candidate_index.string': M.candidateUnknown,
    'candidate_index.maxLength': M.candidateUnknown,
    'reason.required': M.holdReasonRequired,
    'reason.string': M.holdReasonRequired,
    'reason.minLength': M.holdReasonRequired,
    'reason.maxLength': M.reasonTooLong,
  },
);

/** A GET's query: the diet (by code) and the grid's page. */
export const scoreQueryValidator = formValidator(
  vine.object({
    diet: dietCode().optional(),
    page: vine
      .string()
      .regex(/^[1-9]\d{0,5}$/)
      .transform(Number)
      .optional(),
  }),
  {
    'diet.string': M.dietUnknown,
    'diet.maxLength': M.dietUnknown,
    'diet.regex': M.dietUnknown,
    'page.string': M.choose,
    'page.regex': M.choose,
  },
);
