import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { RESIT_LIMITS as L, RESIT_MESSAGES as M, RESIT_PAPERS } from './resits';

/**
 * Adding a resit entry: run by the dialog's form in the browser and again by the server. Empty inputs
 * count as not given (HTML forms send them as empty strings).
 */

const resitSchema = vine.object({
  candidate_index: vine.string().trim().maxLength(L.candidateIndexMax),
  diet: vine.string().trim().toUpperCase().maxLength(20),
  papers: vine.array(vine.enum(RESIT_PAPERS)).minLength(1).distinct(),
});

/** The papers in the board's order, whatever order they were ticked in. */
export const inPaperOrder = (papers: readonly string[]) =>
  RESIT_PAPERS.filter((paper) => papers.includes(paper));

export const resitValidator = formValidator(resitSchema, {
  'candidate_index.required': M.candidateIndexRequired,
  'candidate_index.string': M.candidateIndexRequired,
  'diet.required': M.dietRequired,
  'diet.string': M.dietRequired,
  'diet.maxLength': M.dietUnknown,
  'papers.required': M.papersRequired,
  'papers.array': M.papersRequired,
  'papers.array.minLength': M.papersRequired,
  'papers.distinct': M.paperUnknown,
  'papers.*.enum': M.paperUnknown,
  maxLength: M.tooLong,
});
