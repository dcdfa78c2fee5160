import vine from '@vinejs/vine';
import { AUDIT_CHAIN_MESSAGES as M } from './auditChain';
import { formValidator } from './formValidator';

/** A printed head, both parts or neither (POST /api/admin/audit/chain/verify). */
export const printedHeadValidator = formValidator(
  vine.object({
    printed_id: vine
      .number()
      .withoutDecimals()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional()
      .requiredIfExists('printed_hash'),
    printed_hash: vine
      .string()
      .trim()
      .toLowerCase()
      .fixedLength(64)
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .requiredIfExists('printed_id'),
  }),
  {
    'printed_id.number': M.printedIdInvalid,
    'printed_id.withoutDecimals': M.printedIdInvalid,
    'printed_id.positive': M.printedIdInvalid,
    'printed_id.max': M.printedIdInvalid,
    'printed_id.required': M.printedIdRequired,
    'printed_hash.string': M.printedHashInvalid,
    'printed_hash.fixedLength': M.printedHashInvalid,
    'printed_hash.regex': M.printedHashInvalid,
    'printed_hash.required': M.printedHashRequired,
  },
);
