import { BROADCAST_MESSAGES as M } from '../../contract/broadcasts';
import { BROADCAST_ENDPOINTS as E } from '../../contract/broadcasts.endpoints';
import { broadcastValidator } from '../../contract/broadcasts.validators';
import { runValidator } from '../../contract/endpoint';
import {
  acknowledgeBroadcast,
  attachmentFor,
  audienceChoices,
  broadcastDetail,
  checkAttachments,
  openBroadcast,
  receivedBroadcasts,
  remindBroadcast,
  sendBroadcast,
  sentBroadcasts,
  withdrawBroadcast,
} from '../broadcasts/service';
import { Invalid, NotFound } from '../errors';
import { actorOf, callerOf, dbOf, transact, withStorage, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { checkedForm } from '../http/validate';

/**
 * The send form: its text by the contract's validator, its files (`attachments`, up to five) by size
 * and content; every problem of both in one 422.
 */
const sendForm = checkedForm(async (body) => {
  const sent = body.attachments;
  delete body.attachments;
  const [text, files] = await Promise.all([runValidator(broadcastValidator, body), checkAttachments(sent)]);
  const fields = { ...text.fields, ...files.fields };
  if (text.fields || Object.keys(fields).length) throw new Invalid(fields);
  return { input: text.value!, attachments: files.attachments };
});

/** The school a school admin acts for (every school admin has one). */
function schoolOf(c: AppContext): number {
  const school = callerOf(c).trainingSchoolId;
  if (school === null) throw new NotFound(M.notFound);
  return school;
}

/**
 * An attachment's bytes, to those attachmentFor allows, as a download that never runs in the portal:
 * bytes to save (`application/octet-stream`, `attachment`), under the name it was sent with, whose
 * extension is the one its checked content gave.
 */
async function attachment(c: AppContext) {
  const id = idOf(c, M.notFound);
  const attachmentId = idOf(c, M.attachmentNotFound, 'attachment');
  const file = await attachmentFor(dbOf(c), callerOf(c), id, attachmentId);
  const stored = await c.get('deps').storage.get(file.key);
  if (!stored) throw new NotFound(M.attachmentNotFound);
  // The extension its checked content gave (the key's), whatever the name it came with ends in.
  const extension = file.key.slice(file.key.lastIndexOf('.'));
  const named =
    file.name.toLowerCase().endsWith(extension) || (extension === '.jpg' && /\.jpeg$/i.test(file.name));
  const name = named ? file.name : `${file.name}${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return c.body(stored.bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(stored.bytes.byteLength),
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  });
}

export const broadcastRoutes: Route[] = [
  serve(E.audiences, async (c) => ok(c, await audienceChoices(dbOf(c)))),

  serve(E.send, sendForm, async (c) => {
    const { input, attachments } = c.req.valid('form');
    const summary = await sendBroadcast(withStorage(c), actorOf(c), input, attachments);
    // The outbox's rows are committed; the mail job takes them now (or at its next run).
    await c
      .get('deps')
      .jobs?.send('broadcast-mail', {}, { singletonKey: 'broadcast-mail' })
      .catch((error: unknown) =>
        c.get('deps').log.error('broadcast.mail_queue_failed', { error: String(error) }),
      );
    return ok(c, summary, M.sent);
  }),

  serve(E.sent, async (c) => ok(c, await sentBroadcasts(dbOf(c)))),

  serve(E.detail, async (c) => ok(c, await broadcastDetail(dbOf(c), idOf(c, M.notFound)))),

  serve(E.remind, async (c) => {
    const id = idOf(c, M.notFound);
    const reminded = await transact(c, (tx, actor) => remindBroadcast(tx, actor, id));
    await c
      .get('deps')
      .jobs?.send('broadcast-mail', {}, { singletonKey: 'broadcast-mail' })
      .catch((error: unknown) =>
        c.get('deps').log.error('broadcast.mail_queue_failed', { error: String(error) }),
      );
    return ok(c, reminded, M.reminded(reminded.schools));
  }),

  serve(E.withdraw, async (c) => {
    const id = idOf(c, M.notFound);
    await transact(c, (tx, actor) => withdrawBroadcast(tx, actor, id));
    return ok(c, undefined, M.withdrawn);
  }),

  serve(E.attachment.admin, attachment),
  serve(E.attachment.school_admin, attachment),

  serve(E.received, async (c) => ok(c, await receivedBroadcasts(dbOf(c), schoolOf(c)))),

  serve(E.open, async (c) => {
    const id = idOf(c, M.notFound);
    const school = schoolOf(c);
    return ok(c, await transact(c, (tx, actor) => openBroadcast(tx, actor, school, id)));
  }),

  serve(E.acknowledge, async (c) => {
    const id = idOf(c, M.notFound);
    const school = schoolOf(c);
    const row = await transact(c, (tx, actor) => acknowledgeBroadcast(tx, actor, school, id));
    return ok(c, row, M.acknowledged);
  }),
];
