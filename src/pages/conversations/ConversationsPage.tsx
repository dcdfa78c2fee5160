import { Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import {
  CONVERSATION_MESSAGES as M,
  type Conversation,
  type ConversationMessage,
} from '../../../contract/conversations';
import { formatDateTime } from '../../../contract/format';
import {
  BOARD_CONVERSATION_PAGE,
  SCHOOL_MESSAGES_PAGE,
  schoolConversationPath,
} from '../../../contract/notifications';
import {
  answerConversation,
  loadBoardConversation,
  loadSchoolConversation,
  loadSchoolConversations,
  replyToConversation,
} from '../../api/conversations';
import { useActors } from '../../app/actors';
import { LoadBoundary, reloadResource, useReloadable } from '../../app/resource';
import { Button, TextAreaField } from '../../ui/controls';
import { PageFormDialog, type FormDialogRef } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';

/**
 * A school's messages with the board (issue 26): the board opens a conversation from its notification
 * and answers it; a school lists its own conversations, reads one and replies. Every text is shown as
 * text (React escapes it), line breaks kept.
 */

/** The id at the end of the address (`/messages/12`), or null for the page itself. */
function idAfter(page: string, location: string): number | null {
  if (!location.startsWith(`${page}/`)) return null;
  const id = Number(location.slice(page.length + 1));
  return Number.isInteger(id) && id > 0 ? id : -1;
}

const loading = <p className="text-slate-600">Loading…</p>;

function MessageItem({
  message,
  mine,
  school,
}: {
  message: ConversationMessage;
  mine: boolean;
  school: string;
}) {
  return (
    <li
      className={`rounded-md p-4 ring-1 ${mine ? 'bg-brand-50 ring-brand-100 sm:ml-12' : 'bg-white ring-slate-200 sm:mr-12'}`}
    >
      <p className="text-xs text-slate-500">
        {message.from === 'board' ? 'The board' : school}
        {message.author ? ` · ${message.author}` : ''} · {formatDateTime(message.created_at)}
      </p>
      <p className="mt-1 whitespace-pre-line break-words">{message.body}</p>
    </li>
  );
}

function Thread({ conversation, side }: { conversation: Conversation; side: 'board' | 'school' }) {
  return (
    <ol className="mt-4 space-y-3" aria-label="Messages">
      {conversation.messages.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          mine={message.from === side}
          school={conversation.school.name}
        />
      ))}
    </ol>
  );
}

function MessageDialog({ dialog, id, title }: { dialog: FormDialogRef; id: number; title: string }) {
  return (
    <PageFormDialog actor={dialog} title={title} submitLabel="Send" busyLabel="Sending…" closeLabel="Cancel">
      {(error) => (
        <>
          <input type="hidden" name="id" value={id} />
          <TextAreaField label="Your message" name="message" rows={6} error={error('message')} />
        </>
      )}
    </PageFormDialog>
  );
}

function ConversationView({ id, side }: { id: number; side: 'board' | 'school' }) {
  const key = `conversation:${side}:${id}`;
  const [conversation, reload] = useReloadable(key, () =>
    side === 'board' ? loadBoardConversation(id) : loadSchoolConversation(id),
  );
  const dialog = useSavingDialog(
    side === 'board' ? answerConversation : replyToConversation,
    side === 'board' ? M.answered : M.replied,
    reload,
  );
  const action = side === 'board' ? 'Answer' : 'Reply';
  return (
    <>
      <h1 className="text-2xl font-semibold break-words">{conversation.subject}</h1>
      <p className="mt-1 text-slate-600">
        {side === 'board'
          ? `${conversation.school.name} (${conversation.school.code})`
          : "Your school's conversation with the board"}{' '}
        · started {formatDateTime(conversation.created_at)}
      </p>
      <Thread conversation={conversation} side={side} />
      <Button className="mt-4" onClick={() => dialog.send({ type: 'form.open', subject: null })}>
        {action}
      </Button>
      <MessageDialog dialog={dialog} id={id} title={`${action}: ${conversation.subject}`} />
    </>
  );
}

/** /notifications/conversation/<id>: the board reads a school's conversation and answers it. */
export function BoardConversationPage() {
  const [location] = useLocation();
  const id = idAfter(BOARD_CONVERSATION_PAGE, location) ?? -1;
  return (
    <section>
      <Link href="/notifications" className="text-sm text-brand-700 underline">
        Back to Notifications
      </Link>
      <div className="mt-2">
        <LoadBoundary>
          <Suspense fallback={loading}>
            {id > 0 ? (
              <ConversationView id={id} side="board" />
            ) : (
              <>
                <h1 className="text-2xl font-semibold">Conversation</h1>
                <p role="alert" className="mt-2">
                  {M.notFound}
                </p>
              </>
            )}
          </Suspense>
        </LoadBoundary>
      </div>
    </section>
  );
}

function SchoolConversationList() {
  const [conversations] = useReloadable('conversations:school', loadSchoolConversations);
  const { messageForm } = useActors();
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Messages with the board</h1>
        <Button onClick={() => messageForm.send({ type: 'form.open' })}>Message the board</Button>
      </div>
      {conversations.length === 0 ? (
        <p className="mt-4 rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
          Your school has not written to the board yet.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200 rounded-md bg-white ring-1 ring-slate-200">
          {conversations.map((c) => (
            <li key={c.id} className="p-4">
              <Link href={schoolConversationPath(c.id)} className="font-medium text-brand-700 underline">
                {c.subject}
              </Link>
              <p className="text-xs text-slate-500">
                {c.messages} message{c.messages === 1 ? '' : 's'} · last{' '}
                {c.last_from === 'board' ? 'from the board' : 'from your school'},{' '}
                {formatDateTime(c.last_message_at)}
                {c.unread_answers > 0 && (
                  <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 font-medium text-white">
                    {c.unread_answers} new answer{c.unread_answers === 1 ? '' : 's'}
                  </span>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** /messages: the school's conversations; /messages/<id>: one of them, with its Reply. */
export default function SchoolMessagesPage() {
  const [location] = useLocation();
  const id = idAfter(SCHOOL_MESSAGES_PAGE, location);
  return (
    <section>
      {id !== null && (
        <Link
          href={SCHOOL_MESSAGES_PAGE}
          className="text-sm text-brand-700 underline"
          onClick={() => reloadResource('conversations:school')}
        >
          Back to your messages
        </Link>
      )}
      <div className={id !== null ? 'mt-2' : ''}>
        <LoadBoundary>
          <Suspense fallback={loading}>
            {id === null ? (
              <SchoolConversationList />
            ) : id > 0 ? (
              <ConversationView key={id} id={id} side="school" />
            ) : (
              <p role="alert">{M.notFound}</p>
            )}
          </Suspense>
        </LoadBoundary>
      </div>
    </section>
  );
}
