import { Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import { SCHOOL_BROADCASTS_PAGE as PAGE } from '../../../contract/broadcasts';
import { formatDateTime } from '../../../contract/format';
import { acknowledgeBroadcast, loadReceivedBroadcasts, openBroadcast } from '../../api/broadcasts';
import { LoadBoundary, reloadResource, useReloadable } from '../../app/resource';
import { Button, Splash } from '../../ui/controls';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';
import { Attachments, BroadcastBody } from './BroadcastParts';
import { RECEIVED_KEY, receivedKey } from './keys';

/**
 * Broadcasts from the board (school admin, /broadcasts, linked from the Dashboard): the list of those
 * addressed to the school, and one (/broadcasts/<id>), read when opened here, acknowledged when asked.
 */
export default function SchoolBroadcastsPage() {
  const [path] = useLocation();
  const id = Number(/^\/broadcasts\/(\d+)$/.exec(path)?.[1] ?? 0);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Broadcasts from the board</h1>
      <LoadBoundary>
        <Suspense fallback={<Splash message="Loading…" />}>
          {id ? <OneBroadcast id={id} /> : <Received />}
        </Suspense>
      </LoadBoundary>
    </section>
  );
}

function Received() {
  const [rows] = useReloadable(RECEIVED_KEY, loadReceivedBroadcasts);
  if (!rows.length) {
    return (
      <p className="rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
        The board has not sent your school a broadcast yet.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-md bg-white ring-1 ring-slate-200">
      {rows.map((row) => (
        <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <div>
            <Link
              href={`${PAGE}/${row.id}`}
              className={`text-brand-700 underline ${row.read_at ? '' : 'font-semibold'}`}
            >
              {row.title}
            </Link>
            <span className="block text-sm text-slate-600">Sent {formatDateTime(row.sent_at)}</span>
          </div>
          <span className="text-sm">
            {!row.read_at ? (
              <span className="rounded bg-brand-50 px-1.5 py-0.5 text-brand-800">New</span>
            ) : row.requires_acknowledgement && !row.acknowledged_at ? (
              <span className="rounded bg-amber-50 px-1.5 py-0.5 text-amber-800">To acknowledge</span>
            ) : row.acknowledged_at ? (
              <span className="rounded bg-green-100 px-1.5 py-0.5 text-green-800">Acknowledged</span>
            ) : (
              <span className="text-slate-600">Read</span>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}

function OneBroadcast({ id }: { id: number }) {
  // Opening it here is reading it: the load itself records the read (no pixel, no mail tracking).
  const [row] = useReloadable(receivedKey(id), () => openBroadcast(id));
  const acknowledge = useSavingDialog(acknowledgeBroadcast, 'Acknowledged.', () => {
    reloadResource(receivedKey(id));
    reloadResource(RECEIVED_KEY);
  });
  return (
    <div className="space-y-4">
      <Link href={PAGE} className="text-brand-700 underline">
        All broadcasts
      </Link>
      <article className="rounded-md bg-white p-6 ring-1 ring-slate-200">
        <h2 className="break-words text-xl font-semibold">{row.title}</h2>
        <p className="mt-1 text-sm text-slate-600">Sent {formatDateTime(row.sent_at)}</p>
        <div className="mt-4">
          <BroadcastBody body={row.body} />
        </div>
        <Attachments role="school_admin" broadcastId={row.id} files={row.attachments} />
      </article>
      {row.requires_acknowledgement &&
        (row.acknowledged_at ? (
          <p className="text-green-800" role="status">
            Your school acknowledged it on {formatDateTime(row.acknowledged_at)}.
          </p>
        ) : (
          <div className="rounded-md bg-amber-50 p-4 ring-1 ring-amber-200">
            <p>The board asks your school to acknowledge this broadcast.</p>
            <Button className="mt-2" onClick={() => acknowledge.send({ type: 'form.open', subject: row })}>
              Acknowledge
            </Button>
          </div>
        ))}
      <PageFormDialog
        actor={acknowledge}
        role="alertdialog"
        title="Acknowledge this broadcast?"
        submitLabel="Acknowledge"
        busyLabel="Acknowledging…"
        closeLabel="Cancel"
      >
        {() => (
          <>
            <input type="hidden" name="id" value={row.id} />
            <p>The board will see that your school has read and acknowledged &ldquo;{row.title}&rdquo;.</p>
          </>
        )}
      </PageFormDialog>
    </div>
  );
}
