import { BROADCAST_ENDPOINTS as E } from '../../contract/broadcasts.endpoints';
import { broadcastValidator } from '../../contract/broadcasts.validators';
import { fillPath, runValidator } from '../../contract/endpoint';
import { isApiFailure, type ApiFailure, type FieldMessages } from '../../contract/envelope';
import type { FormValues } from '../../machines/formDialog.machine';
import { REPEATED_VALUE_SEPARATOR } from '../ui/formValues';
import { downloadFile } from './download';
import { FIELDS_NEED_ATTENTION, send } from './send';

/** The broadcasts' I/O (contract/broadcasts.endpoints.ts): the board's side and the schools'. */

/** The send form's file inputs: up to five, one file each, sent as `attachments` in this order. */
export const ATTACHMENT_INPUTS = [
  'attachment_1',
  'attachment_2',
  'attachment_3',
  'attachment_4',
  'attachment_5',
];

const TEXT_FIELDS = ['title', 'body', 'audience', 'state', 'course_header_id', 'status'] as const;

/**
 * Sends a broadcast: the text checked here first (the server's messages), then one multipart form with
 * the files. The server names a refused file by its place among those sent (`attachments.0`); it is
 * said back beside the input it came from. A refusal leaves the form as it was typed.
 */
export async function sendBroadcast(values: FormValues): Promise<{ message?: string }> {
  const text: Record<string, string> = {};
  for (const name of TEXT_FIELDS) {
    const value = values[name];
    if (typeof value === 'string' && value !== '') text[name] = value;
  }
  const schools = values.school_ids;
  if (typeof schools === 'string' && schools)
    text.school_ids = schools.split(REPEATED_VALUE_SEPARATOR).join(',');
  if (values.requires_acknowledgement) text.requires_acknowledgement = 'true';
  const checked = await runValidator(broadcastValidator, text);
  if (checked.fields)
    throw { status: 422, message: FIELDS_NEED_ATTENTION, fields: checked.fields } satisfies ApiFailure;

  const form = new FormData();
  for (const [name, value] of Object.entries(text)) form.append(name, value);
  const inputs = ATTACHMENT_INPUTS.filter((name) => {
    const file = values[name];
    return file instanceof File && file.size > 0;
  });
  for (const name of inputs) form.append('attachments', values[name] as File);
  try {
    const { message } = await send(E.send, { body: form });
    return { message };
  } catch (error) {
    if (!isApiFailure(error)) throw error;
    const fields: FieldMessages = {};
    for (const [name, messages] of Object.entries(error.fields)) {
      const place = /^attachments\.(\d+)$/.exec(name);
      fields[place && inputs[Number(place[1])] ? inputs[Number(place[1])] : name] = messages;
    }
    throw { ...error, fields } satisfies ApiFailure;
  }
}

export const loadAudienceChoices = async () => (await send(E.audiences)).data;
export const loadSentBroadcasts = async () => (await send(E.sent)).data;
export const loadBroadcast = async (id: number) => (await send(E.detail, { params: { id } })).data;

export async function remindBroadcast(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.remind, { params: { id: Number(values.id) } });
  return { message };
}

export async function withdrawBroadcast(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.withdraw, { params: { id: Number(values.id) } });
  return { message };
}

export const loadReceivedBroadcasts = async () => (await send(E.received)).data;

/** Opening a broadcast is reading it: the school's read is recorded as it loads. */
export const openBroadcast = async (id: number) => (await send(E.open, { params: { id } })).data;

export async function acknowledgeBroadcast(values: FormValues): Promise<{ message?: string }> {
  const { message } = await send(E.acknowledge, { params: { id: Number(values.id) } });
  return { message };
}

/** An attachment, downloaded with the session (the board's path or the school's). */
export const downloadAttachment = (
  role: 'admin' | 'school_admin',
  id: number,
  attachment: number,
  name: string,
) => downloadFile(fillPath(E.attachment[role].path, { id, attachment }), name);
