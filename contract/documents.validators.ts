import vine from '@vinejs/vine';
import { DIET_CODE_PATTERN } from './diets';
import { DOCUMENT_MESSAGES as M } from './documents';
import { formValidator } from './formValidator';

/**
 * A document's query string: which diet, school, course header, paper, candidate and layout. Only the
 * form of each is checked here; whether it names something, and whether the caller may print it, only
 * the server can say (server/documents/params.ts), with the same sentences.
 */
const code = () => vine.string().trim().toUpperCase().maxLength(40);

export const documentQueryValidator = formValidator(
  vine.object({
    diet: vine.string().trim().toUpperCase().maxLength(20).regex(DIET_CODE_PATTERN).optional(),
    school: code().optional(),
    course_header: code().optional(),
    paper: vine
      .string()
      .regex(/^[1-9]\d{0,8}$/)
      .transform(Number)
      .optional(),
    candidate: code().optional(),
    variant: vine.string().trim().maxLength(20).optional(),
  }),
  Object.fromEntries(
    (
      [
        ['diet', M.unknownDiet],
        ['school', M.unknownSchool],
        ['course_header', M.unknownCourseHeader],
        ['paper', M.unknownPaper],
        ['candidate', M.unknownCandidate],
        ['variant', M.unknownVariant],
      ] as const
    ).flatMap(([field, message]) =>
      ['string', 'maxLength', 'regex'].map((rule) => [`${field}.${rule}`, message]),
    ),
  ),
);

/** What a valid query holds (codes upper-cased, the paper a number). */
export type DocumentQuery = Awaited<ReturnType<typeof documentQueryValidator.validate>>;

/** The board's choice of whether schools may print a document. */
export const schoolPrintingValidator = formValidator(
  vine.object({ allowed: vine.boolean({ strict: true }) }),
  {
    'allowed.required': 'Say whether training schools may print it.',
    'allowed.boolean': 'Say whether training schools may print it.',
  },
);
