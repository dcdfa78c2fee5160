import { CONVERSATION_MESSAGES as M } from '../../contract/conversations';
import { CONVERSATION_ENDPOINTS as E } from '../../contract/conversations.endpoints';
import {
  answerConversation,
  markAnswersRead,
  readConversation,
  replyToConversation,
  schoolConversations,
} from '../conversations/service';
import { mailConversationAnswers } from '../conversations/mail';
import { afterAnswer } from '../http/afterAnswer';
import { callerOf, dbOf, transact, type AppContext } from '../http/context';
import { idOf } from '../http/params';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { describeError } from '../log';

/** After an answer commits: the outbox's job sends its mails (or, in an app without a queue, the same work). */
function mailAfterAnswer(c: AppContext) {
  const { jobs, database, mailer, config, log } = c.get('deps');
  afterAnswer(c, () => {
    const sent = jobs
      ? jobs.send('conversation-mail', {}, { singletonKey: 'conversation-mail' })
      : mailConversationAnswers({ db: database.db, mailer, log, publicUrl: config.publicUrl });
    sent.catch((error: unknown) => log.error('conversation.mail_failed', describeError(error)));
  });
}

/** A school's messages with the board (server/conversations/service.ts). */
export const conversationRoutes: Route[] = [
  serve(E.boardOne, async (c) => {
    const id = idOf(c, M.notFound);
    return ok(c, await readConversation(dbOf(c), { kind: 'board' }, id));
  }),

  serve(E.answer, async (c) => {
    const id = idOf(c, M.notFound);
    const { message } = c.req.valid('json');
    const conversation = await transact(c, (tx, actor) => answerConversation(tx, actor, id, message));
    mailAfterAnswer(c);
    return ok(c, conversation, M.answered);
  }),

  serve(E.schoolList, async (c) => {
    const schoolId = callerOf(c).trainingSchoolId;
    return ok(c, schoolId === null ? [] : await schoolConversations(dbOf(c), schoolId));
  }),

  serve(E.schoolOne, async (c) => {
    const id = idOf(c, M.notFound);
    const schoolId = callerOf(c).trainingSchoolId;
    // Opening it is reading it (a page's load is a GET, and a write while a page loads would make it load
    // again): the answers are marked read in the same transaction as they are read.
    const conversation = await transact(c, async (tx) => {
      await markAnswersRead(tx, schoolId, id);
      return readConversation(tx, { kind: 'school', schoolId }, id);
    });
    return ok(c, conversation);
  }),

  serve(E.reply, async (c) => {
    const id = idOf(c, M.notFound);
    const schoolId = callerOf(c).trainingSchoolId;
    const { message } = c.req.valid('json');
    const conversation = await transact(c, (tx, actor) =>
      replyToConversation(tx, actor, schoolId, id, message),
    );
    return ok(c, conversation, M.replied);
  }),
];
