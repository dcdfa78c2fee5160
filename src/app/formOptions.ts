import { loadFormOptions, loadNationalities } from '../api/candidates';
import { forgetResource, useResource } from './resource';

/** The choices forms share (schools, course headers, nationalities), each cached once under one key. */
const FORM_OPTIONS = 'candidate-form-options';

export const useFormOptions = () => useResource(FORM_OPTIONS, loadFormOptions);
/** After a course header changes, the pickers read it afresh. */
export const forgetFormOptions = () => forgetResource(FORM_OPTIONS);
export const useNationalities = () => useResource('nationalities-admin', () => loadNationalities('admin'));
