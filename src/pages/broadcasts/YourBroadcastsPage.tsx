import { Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import type { BroadcastDetail, BroadcastSummary } from '../../../contract/broadcasts';
import { formatDateTime } from '../../../contract/format';
import { BROADCAST_LINKS } from '../../../contract/navigation';
import { loadBroadcast, loadSentBroadcasts, remindBroadcast, withdrawBroadcast } from '../../api/broadcasts';
import { LoadBoundary, reloadResource, useReloadable } from '../../app/resource';
import { Button, Splash } from '../../ui/controls';
import { PageFormDialog } from '../../ui/PageFormDialog';
import { useSavingDialog } from '../pagedList';
import { Attachments, BroadcastBody } from './BroadcastParts';
import { broadcastKey, SENT_KEY } from './keys';

/**
 * Your broadcast (admin, /broadcast-school/me): what the board has sent, with read and acknowledged
 * counts; one broadcast (/broadcast-school/me/<id>) with each school's state, a reminder to the schools
 * that have not acknowledged, and withdrawal.
 */
const PAGE = BROADCAST_LINKS[1].path;

export default function YourBroadcastsPage() {
  const [path] = useLocation();
  const id = Number(/^\/broadcast-school\/me\/(\d+)$/.exec(path)?.[1] ?? 0);
  return (
    <section>
      <h1 className="mb-4 text-2xl font-semibold">Your broadcast</h1>
      <LoadBoundary>
        <Suspense fallback={<Splash message="Loading…" />}>
          {id ? <OneBroadcast id={id} /> : <SentList />}
        </Suspense>
      </LoadBoundary>
    </section>
  );
}

const state = (row: BroadcastSummary) =>
  row.withdrawn_at ? (
    <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">Withdrawn</span>
  ) : (
    <span className="rounded bg-green-100 px-1.5 py-0.5 text-xs text-green-800">Sent</span>
  );

function SentList() {
  const [rows] = useReloadable(SENT_KEY, loadSentBroadcasts);
  if (!rows.length) {
    return (
      <p className="rounded-md bg-white p-6 text-slate-600 ring-1 ring-slate-200">
        No broadcast has been sent yet.{' '}
        <Link href="/broadcast-school" className="text-brand-700 underline">
          Send a broadcast
        </Link>
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-md bg-white ring-1 ring-slate-200">
      <table className="min-w-full text-sm">
        <thead className="bg-slate-50 text-left">
          <tr>
            {['Title', 'Sent to', 'Sent', 'Schools', 'Read', 'Acknowledged', 'State'].map((head) => (
              <th key={head} scope="col" className="px-4 py-2 font-medium">
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-testid={`broadcast-${row.id}`}>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                <Link href={`${PAGE}/${row.id}`} className="text-brand-700 underline">
                  {row.title}
                </Link>
              </th>
              <td className="px-4 py-2">{row.audience.description}</td>
              <td className="px-4 py-2">{formatDateTime(row.sent_at)}</td>
              <td className="px-4 py-2">{row.schools}</td>
              <td className="px-4 py-2">{row.read}</td>
              <td className="px-4 py-2">{row.requires_acknowledgement ? row.acknowledged : 'Not asked'}</td>
              <td className="px-4 py-2">{state(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OneBroadcast({ id }: { id: number }) {
  const [row] = useReloadable(broadcastKey(id), () => loadBroadcast(id));
  const reload = () => {
    reloadResource(broadcastKey(id));
    reloadResource(SENT_KEY);
  };
  const remind = useSavingDialog(remindBroadcast, 'The reminder is on its way.', reload);
  const withdraw = useSavingDialog(withdrawBroadcast, 'The broadcast has been withdrawn.', reload);
  const outstanding = row.schools - row.acknowledged;
  return (
    <div className="space-y-4">
      <Link href={PAGE} className="text-brand-700 underline">
        All broadcasts
      </Link>
      <article className="rounded-md bg-white p-6 ring-1 ring-slate-200">
        <h2 className="break-words text-xl font-semibold">{row.title}</h2>
        <p className="mt-1 text-sm text-slate-600">
          {row.audience.description} · sent {formatDateTime(row.sent_at)}
          {row.sent_by ? ` by ${row.sent_by}` : ''} {state(row)}
        </p>
        <div className="mt-4">
          <BroadcastBody body={row.body} />
        </div>
        <Attachments role="admin" broadcastId={row.id} files={row.attachment_list} />
      </article>
      <dl
        className="grid grid-cols-3 gap-4 rounded-md bg-white p-4 text-center ring-1 ring-slate-200"
        aria-label="Counts"
      >
        <Count label="Schools" value={row.schools} />
        <Count label="Read" value={row.read} />
        <Count label="Acknowledged" value={row.requires_acknowledgement ? row.acknowledged : '—'} />
      </dl>
      <div className="flex flex-wrap gap-3">
        {row.requires_acknowledgement && !row.withdrawn_at && (
          <Button disabled={!row.can_remind} onClick={() => remind.send({ type: 'form.open', subject: row })}>
            Remind schools that have not acknowledged
          </Button>
        )}
        {!row.withdrawn_at && (
          <Button variant="secondary" onClick={() => withdraw.send({ type: 'form.open', subject: row })}>
            Withdraw
          </Button>
        )}
      </div>
      {row.requires_acknowledgement && !row.withdrawn_at && !row.can_remind && outstanding > 0 && (
        <p className="text-sm text-slate-600">
          Reminded {row.reminders} time{row.reminders === 1 ? '' : 's'}
          {row.last_reminded_at ? `, last at ${formatDateTime(row.last_reminded_at)}` : ''}. A broadcast may
          be reminded 3 times, a day apart.
        </p>
      )}
      <RecipientTable row={row} />
      <PageFormDialog
        actor={remind}
        role="alertdialog"
        title="Remind the schools?"
        submitLabel="Send the reminder"
        busyLabel="Sending…"
        closeLabel="Cancel"
      >
        {() => (
          <>
            <input type="hidden" name="id" value={row.id} />
            <p>
              The admins of the {outstanding} school{outstanding === 1 ? '' : 's'} that have not acknowledged
              it will be mailed a reminder with a link to it.
            </p>
          </>
        )}
      </PageFormDialog>
      <PageFormDialog
        actor={withdraw}
        role="alertdialog"
        title="Withdraw this broadcast?"
        submitLabel="Withdraw"
        busyLabel="Withdrawing…"
        closeLabel="Cancel"
      >
        {() => (
          <>
            <input type="hidden" name="id" value={row.id} />
            <p>
              Schools will no longer see it or its files. Mail not sent yet is not sent. You keep its record
              here.
            </p>
          </>
        )}
      </PageFormDialog>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number | string }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold" data-testid={`count-${label.toLowerCase()}`}>
        {value}
      </dd>
    </div>
  );
}

function RecipientTable({ row }: { row: BroadcastDetail }) {
  return (
    <div className="overflow-x-auto rounded-md bg-white ring-1 ring-slate-200">
      <table className="min-w-full text-sm">
        <caption className="px-4 py-2 text-left font-semibold">Schools</caption>
        <thead className="bg-slate-50 text-left">
          <tr>
            {['School', 'State', 'Read', 'Acknowledged'].map((head) => (
              <th key={head} scope="col" className="px-4 py-2 font-medium">
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {row.recipients.map((recipient) => (
            <tr key={recipient.school.id} data-testid={`recipient-${recipient.school.code}`}>
              <th scope="row" className="px-4 py-2 text-left font-medium">
                {recipient.school.name} ({recipient.school.code})
              </th>
              <td className="px-4 py-2">{recipient.school.state}</td>
              <td className="px-4 py-2">
                {recipient.read_at ? formatDateTime(recipient.read_at) : 'Not yet'}
              </td>
              <td className="px-4 py-2">
                {!row.requires_acknowledgement
                  ? 'Not asked'
                  : recipient.acknowledged_at
                    ? formatDateTime(recipient.acknowledged_at)
                    : 'Not yet'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
