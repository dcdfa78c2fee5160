import { loadFormOptions, loadNationalities } from '../api/formChoices';
import { prefetchResource, useResource } from './resource';

/** The choices forms share (schools, course headers, nationalities), each cached once under one key. */
const FORM_OPTIONS = 'candidate-form-options';
const NATIONALITIES = 'nationalities-admin';
const loadAdminNationalities = () => loadNationalities('admin');

export const useFormOptions = () => useResource(FORM_OPTIONS, loadFormOptions);
export const useNationalities = () => useResource(NATIONALITIES, loadAdminNationalities);

/**
 * Both loads at once, before the form that reads them is there: read one after the other under
 * Suspense, the second would wait for the first (and the form's chunk) on a slow link.
 */
/** The form's choices alone, for a page that offers them without the form (Score Entry's course headers). */
export const prefetchFormOptions = () => prefetchResource(FORM_OPTIONS, loadFormOptions);

export function prefetchFormChoices() {
  prefetchFormOptions();
  prefetchResource(NATIONALITIES, loadAdminNationalities);
}
