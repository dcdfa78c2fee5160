import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { INTEGRITY_MESSAGES as M } from './integrity';

const reportSchema = vine.object({
  page: vine.number({ strict: false }).withoutDecimals().range([1, 100_000]).optional(),
});

export const duplicateReportValidator = formValidator(reportSchema, {
  'page.number': M.pageInvalid,
  'page.withoutDecimals': M.pageInvalid,
  'page.range': M.pageInvalid,
});
