import vine from '@vinejs/vine';
import { AUDIENCE_KINDS, BROADCAST_LIMITS as L, BROADCAST_MESSAGES as M } from './broadcasts';
import { formValidator } from './formValidator';
import { SCHOOL_STATUSES } from './schools';

/**
 * The send form's text fields (its attachments are checked by the server's upload rules), run by the
 * browser before sending and by the server on every call. The schools come as one text of ids (one a
 * line, as the form's checkboxes give them, or separated by commas); the others only as the audience
 * asks for them.
 */
const whenAudience = (kind: string) => (field: { parent: Record<string, unknown> }) =>
  field.parent.audience === kind;

const broadcastSchema = vine.object({
  title: vine.string().trim().minLength(1).maxLength(L.titleMax),
  body: vine.string().trim().minLength(1).maxLength(L.bodyMax),
  audience: vine.enum(AUDIENCE_KINDS),
  school_ids: vine
    .string()
    .trim()
    .maxLength(L.schoolsMax * 11)
    .regex(/^[1-9]\d{0,9}(?:[\s,]+[1-9]\d{0,9})*$/)
    .optional()
    .requiredWhen(whenAudience('schools')),
  state: vine
    .string()
    .trim()
    .minLength(1)
    .maxLength(L.stateMax)
    .optional()
    .requiredWhen(whenAudience('state')),
  course_header_id: vine
    .string()
    .trim()
    .regex(/^[1-9]\d{0,9}$/)
    .optional()
    .requiredWhen(whenAudience('course_header')),
  status: vine.enum(SCHOOL_STATUSES).optional().requiredWhen(whenAudience('status')),
  requires_acknowledgement: vine.boolean().optional(),
});

const rules = (field: string, message: string, names: string[]) =>
  Object.fromEntries(names.map((rule) => [`${field}.${rule}`, message]));

export const broadcastValidator = formValidator(broadcastSchema, {
  ...rules('title', M.titleRequired, ['required', 'string', 'minLength']),
  'title.maxLength': M.tooLong,
  ...rules('body', M.bodyRequired, ['required', 'string', 'minLength']),
  'body.maxLength': M.tooLong,
  ...rules('audience', M.chooseAudience, ['required', 'enum']),
  ...rules('school_ids', M.chooseSchools, ['required', 'requiredWhen', 'string', 'regex', 'maxLength']),
  ...rules('state', M.chooseState, ['required', 'requiredWhen', 'string', 'minLength']),
  'state.maxLength': M.tooLong,
  ...rules('course_header_id', M.chooseCourseHeader, ['required', 'requiredWhen', 'string', 'regex']),
  ...rules('status', M.chooseStatus, ['required', 'requiredWhen', 'enum']),
  'requires_acknowledgement.boolean': M.acknowledgementChoice,
});

export type BroadcastInput = Awaited<ReturnType<typeof broadcastValidator.validate>>;
