import vine from '@vinejs/vine';
import { BULK_LIMITS as L, BULK_MESSAGES as M } from './bulkIndexing';
import { formValidator } from './formValidator';

/** The rows the page asks the import to index next: from row `from`, `count` of them (a chunk). */
export const bulkRangeValidator = formValidator(
  vine.object({
    from: vine.number({ strict: true }).withoutDecimals().range([1, L.rows]),
    count: vine.number({ strict: true }).withoutDecimals().range([1, 200]),
  }),
  {
    required: M.rangeInvalid,
    number: M.rangeInvalid,
    withoutDecimals: M.rangeInvalid,
    range: M.rangeInvalid,
  },
);
