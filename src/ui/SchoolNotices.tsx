import { Suspense } from 'react';
import { formatDateTime } from '../../contract/format';
import { loadSchoolNotices } from '../api/notifications';
import { LoadBoundary, useResource } from '../app/resource';

function NoticeList() {
  const notices = useResource('school-notices', loadSchoolNotices);
  if (!notices.length) return <p className="mt-1 text-slate-600">Nothing from the board yet.</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-200">
      {notices.map((notice) => (
        <li key={notice.id} className="py-2">
          <p className="font-medium">{notice.title}</p>
          <p className="whitespace-pre-line break-words text-sm text-slate-700">{notice.body}</p>
          <p className="text-xs text-slate-500">{formatDateTime(notice.created_at)}</p>
        </li>
      ))}
    </ul>
  );
}

/** What the board has told this school (closing reminders, extensions), on its dashboard. */
export function SchoolNotices() {
  return (
    <section aria-labelledby="school-notices" className="mt-4 rounded-md bg-white p-6 ring-1 ring-slate-200">
      <h2 id="school-notices" className="font-semibold">
        From the board
      </h2>
      <LoadBoundary>
        <Suspense fallback={<p className="mt-1 text-slate-600">Loading…</p>}>
          <NoticeList />
        </Suspense>
      </LoadBoundary>
    </section>
  );
}
