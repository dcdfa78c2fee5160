import type { DocumentScope } from '../builder';

/**
 * How the mark sheets and the statistics write their figures, so a rate or a mean reads the same on
 * every paper and a test can compute the same text from the raw rows.
 */

/** '62.5%': a part over a whole, to one decimal; '–' when the whole is nought (no rate can be said). */
export const percentText = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${((part * 100) / whole).toFixed(1)}%`;

/** A percent as a bar's value (0 when there is nothing to count). */
export const percentValue = (part: number, whole: number): number => (whole === 0 ? 0 : (part * 100) / whole);

/** A mean of marks held in tenths, in marks to one decimal ('12.3'); '–' for no mean. */
export const meanMarkText = (tenths: number | null): string =>
  tenths === null ? '–' : (tenths / 10).toFixed(1);

/** A ratio to two decimals ('0.62'); '–' for none. */
export const ratioText = (ratio: number | null): string => (ratio === null ? '–' : ratio.toFixed(2));

/** A chosen parameter the document cannot be built without (the pipeline has checked it is there). */
export function required<K extends 'diet' | 'school' | 'courseHeader' | 'paper'>(
  scope: DocumentScope,
  key: K,
): NonNullable<DocumentScope[K]> {
  const value = scope[key];
  if (!value)
    throw new Error(`The document needs its ${key}: the print pipeline checks required parameters.`);
  return value as NonNullable<DocumentScope[K]>;
}
