import vine from '@vinejs/vine';
import type { FieldContext } from '@vinejs/vine/types';
import { DATE_MESSAGES, isRealIsoDate } from './dates';

/**
 * The one ISO-date rule of every validator: a real calendar date written YYYY-MM-DD (what a date input
 * sends and the API takes). It says DATE_MESSAGES.invalid; a form whose field has its own sentence (the
 * spec's for a date of birth) names it in its messages as `<field>.isoDate`.
 */
export const isoDate = vine.createRule((value, _options, field: FieldContext) => {
  if (!isRealIsoDate(value)) field.report(DATE_MESSAGES.invalid, 'isoDate', field);
});
