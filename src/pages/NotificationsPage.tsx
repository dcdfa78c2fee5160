import { formatDateTime } from '../../contract/format';
import { useSelector } from '@xstate/react';
import { Link, useLocation, useSearch } from 'wouter';
import { NOTIFICATION_LISTS } from '../../contract/lists';
import { NOTIFICATION_KINDS, type BoardNotification } from '../../contract/notifications';
import { useActors } from '../app/actors';
import { markRead } from '../api/notifications';
import { Button } from '../ui/controls';
import { ListView } from '../ui/ListView';
import { useList } from './pagedList';

type Tab = 'unread' | 'read';

function NotificationList({ tab }: { tab: Tab }) {
  const { unreadCount } = useActors();
  const list = useList(NOTIFICATION_LISTS[tab], {
    act: markRead(() => unreadCount.send({ type: 'unread.refresh' })),
  });
  // The machine takes a row action only once its page is shown.
  const view = useSelector(list, (s) => ({ canAct: s.matches('loaded') }));
  const act = (payload: { id?: number; all?: true }) =>
    list.send({ type: 'list.act', action: 'markRead', payload });

  return (
    <ListView<BoardNotification> list={list} definition={NOTIFICATION_LISTS[tab]}>
      {(page) => (
        <>
          {tab === 'unread' && page.total > 0 && (
            <div className="mb-3 flex justify-end">
              <Button variant="secondary" disabled={!view.canAct} onClick={() => act({ all: true })}>
                Mark all as read
              </Button>
            </div>
          )}
          {page.items.length === 0 ? (
            <p className="rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
              {tab === 'unread' ? 'No unread notifications.' : 'No read notifications yet.'}
            </p>
          ) : (
            <ul className="divide-y divide-slate-200 rounded-md bg-white ring-1 ring-slate-200">
              {page.items.map((item) => (
                <li
                  key={item.id}
                  className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="font-medium">{item.title}</p>
                    <p className="text-xs text-slate-500">
                      {Object.hasOwn(NOTIFICATION_KINDS, item.kind)
                        ? `${NOTIFICATION_KINDS[item.kind as keyof typeof NOTIFICATION_KINDS]} · `
                        : ''}
                      {item.school ? `${item.school.name} (${item.school.code}) · ` : ''}
                      {formatDateTime(item.created_at)}
                    </p>
                    <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700">{item.body}</p>
                    {item.link && (
                      <Link
                        href={item.link.href}
                        className="mt-1 inline-block text-sm text-brand-700 underline"
                      >
                        {item.link.label}
                      </Link>
                    )}
                  </div>
                  {tab === 'unread' && (
                    <Button variant="secondary" disabled={!view.canAct} onClick={() => act({ id: item.id })}>
                      Mark as read
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </ListView>
  );
}

export default function NotificationsPage() {
  // The open tab is in the address, as its list's page is, so a reload or a link opens it again; each
  // tab's list is its own actor, starting again from its first page.
  const [path, navigate] = useLocation();
  const tab: Tab = new URLSearchParams(useSearch()).get('tab') === 'read' ? 'read' : 'unread';
  const setTab = (next: Tab) => navigate(next === 'read' ? `${path}?tab=read` : path, { replace: true });
  const tabClass = (name: Tab) =>
    `rounded-md px-4 py-2 text-sm font-medium ${tab === name ? 'bg-brand-700 text-white' : 'bg-white text-slate-700 ring-1 ring-slate-300'}`;
  return (
    <section>
      <h1 className="text-2xl font-semibold">Notifications</h1>
      <div role="tablist" aria-label="Notifications" className="mt-4 mb-4 flex gap-2">
        <button
          role="tab"
          aria-selected={tab === 'unread'}
          className={tabClass('unread')}
          onClick={() => setTab('unread')}
        >
          Unread
        </button>
        <button
          role="tab"
          aria-selected={tab === 'read'}
          className={tabClass('read')}
          onClick={() => setTab('read')}
        >
          Read
        </button>
      </div>
      <div role="tabpanel">
        <NotificationList key={tab} tab={tab} />
      </div>
    </section>
  );
}
