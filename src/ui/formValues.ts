import type { FormValues } from '../../machines/formDialog.machine';

/** One line a value, for a name the form carries more than once (a group of checkboxes). */
export const REPEATED_VALUE_SEPARATOR = '\n';

/**
 * What a submitted form holds, as the form machines take it: text and files as they are; a name given
 * more than once arrives as one text of its values, one a line.
 */
export function formValuesOf(form: HTMLFormElement): FormValues {
  const values: FormValues = {};
  new FormData(form).forEach((value, name) => {
    const earlier = values[name];
    values[name] =
      typeof earlier === 'string' && typeof value === 'string'
        ? `${earlier}${REPEATED_VALUE_SEPARATOR}${value}`
        : value;
  });
  return values;
}
