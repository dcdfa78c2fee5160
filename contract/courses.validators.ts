import vine from '@vinejs/vine';
import { formValidator } from './formValidator';
import { COURSE_CODE_PATTERN, COURSE_MESSAGES as M, COURSE_STATUSES, COURSE_TITLE_MAX } from './courses';

/**
 * A course header's form and its status changes, run by the dialog in the browser and by the server on
 * every call. Codes are taken in any case and kept in capitals, so 'b5' and 'B5' are one code.
 */
const courseHeaderSchema = vine.object({
  code: vine.string().trim().toUpperCase().minLength(1).maxLength(3).regex(COURSE_CODE_PATTERN),
  title: vine.string().trim().minLength(1).maxLength(COURSE_TITLE_MAX),
});

const status = () => vine.enum(COURSE_STATUSES);

const messages = {
  'code.required': M.codeRequired,
  'code.string': M.codeRequired,
  'code.minLength': M.codeRequired,
  'code.maxLength': M.codeInvalid,
  'code.regex': M.codeInvalid,
  'title.required': M.titleRequired,
  'title.string': M.titleRequired,
  'title.minLength': M.titleRequired,
  'title.maxLength': M.tooLong,
  required: M.statusInvalid,
  enum: M.statusInvalid,
};

export const courseHeaderValidator = formValidator(courseHeaderSchema, messages);
export const indexingStatusValidator = formValidator(vine.object({ indexing_status: status() }), messages);
export const registrationStatusValidator = formValidator(
  vine.object({ registration_status: status() }),
  messages,
);
