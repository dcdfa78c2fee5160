import {
  DOCUMENT_PARAMS,
  type DocumentDefinition,
  type DocumentOptions,
  type DocumentParam,
} from '../../../contract/documents';
import type { Role } from '../../../contract/roles';

/**
 * What a document is chosen by, as Print Documents and the print pages read it: which parameters the
 * caller picks (a school admin's school is the server's to set), which of them are still missing, and
 * the query string the print page, the PDF and a job are asked with.
 */

export type ChosenValues = Partial<Record<DocumentParam, string>>;

type ChoosableParam = Exclude<DocumentParam, 'variant'>;

export interface ParamToChoose {
  param: ChoosableParam;
  required: boolean;
}

/** The parameters the caller chooses, in the registry's order. */
export function paramsToChoose(definition: DocumentDefinition, role: Role): ParamToChoose[] {
  return DOCUMENT_PARAMS.flatMap((param) => {
    if (param === 'variant') return [];
    const need = definition.params[param];
    if (!need || (param === 'school' && role === 'school_admin')) return [];
    return [{ param, required: need === 'required' }];
  });
}

/** The required parameters not chosen yet, in the order the form asks for them. */
export function missingParams(definition: DocumentDefinition, values: ChosenValues, role: Role) {
  return paramsToChoose(definition, role)
    .filter(({ param, required }) => required && !values[param]?.trim())
    .map(({ param }) => param);
}

/** The papers of the chosen course header (none until one is chosen). */
export const papersFor = (options: DocumentOptions, courseHeader: string | undefined) =>
  courseHeader ? options.papers.filter((paper) => paper.courseHeader === courseHeader) : [];

/** One value chosen: a new course header forgets the paper, which was one of the old course header's. */
export function choose(values: ChosenValues, param: DocumentParam, value: string): ChosenValues {
  const next = { ...values, [param]: value };
  if (param === 'course_header' && value !== values.course_header) delete next.paper;
  return next;
}

/** Where a choice starts: the current diet, and the first layout. */
export function initialValues(definition: DocumentDefinition, options: DocumentOptions): ChosenValues {
  const values: ChosenValues = {};
  const current = options.diets.find((diet) => diet.current);
  if (definition.params.diet && current) values.diet = current.code;
  if (definition.variants?.length) values.variant = definition.variants[0].value;
  return values;
}

/** The query the document is asked with: the chosen values of the parameters it takes, and its layout. */
export function documentQuery(
  definition: DocumentDefinition,
  values: ChosenValues,
  role: Role,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const { param } of paramsToChoose(definition, role)) {
    const value = values[param]?.trim();
    if (value) query[param] = value;
  }
  const variant = values.variant;
  if (definition.variants?.some((choice) => choice.value === variant)) query.variant = variant!;
  return query;
}

/** A print page's query string, as the document is asked with (anything else in it is the page's own). */
export function queryFromSearch(search: string): Record<string, string> {
  const params = new URLSearchParams(search);
  const query: Record<string, string> = {};
  for (const param of DOCUMENT_PARAMS) {
    const value = params.get(param);
    if (value) query[param] = value;
  }
  return query;
}
