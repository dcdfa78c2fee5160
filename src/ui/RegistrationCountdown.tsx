import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { fromPromise } from 'xstate';
import { formatCountdown } from '../../contract/diets';
import { formatDateTime } from '../../contract/format';
import type { Role } from '../../contract/roles';
import { registrationWindowMachine } from '../../machines/registrationWindow.machine';
import { loadRegistrationWindow } from '../api/dietReads';

/**
 * The registration window as the server decides it for the caller ('Registration closes in 3 days 4
 * hours'), counted down by the registration window machine on the server's clock. On a school
 * admin's dashboard and above Registered Candidates (the board's view shows the diet's own window).
 */
export function RegistrationCountdown({ role }: { role: Role }) {
  const [machine] = useState(() =>
    registrationWindowMachine.provide({
      actors: { loadWindow: fromPromise(() => loadRegistrationWindow(role)) },
    }),
  );
  const actor = useActorRef(machine);
  const { window, remaining } = useSelector(actor, (s) => s.context);
  const failed = useSelector(actor, (s) => s.hasTag('failed'));
  if (!window) {
    return failed ? (
      <p className="mb-4 text-sm text-slate-600">
        The registration window could not be loaded; trying again shortly.
      </p>
    ) : (
      <Reserved />
    );
  }
  const tone = window.open
    ? 'bg-green-50 text-green-900 ring-green-300'
    : 'bg-slate-50 text-slate-800 ring-slate-300';
  let headline: string;
  if (!window.diet) headline = 'No diet is open for registration yet.';
  else if (window.open) headline = `Registration closes in ${formatCountdown(remaining ?? 0)}`;
  else if (window.next_change_at) headline = `Registration opens in ${formatCountdown(remaining ?? 0)}`;
  else headline = 'Registration is closed';
  const closesFor =
    window.extension && window.extension.until > window.closes_at!
      ? window.extension.until
      : window.closes_at;
  return (
    <section aria-label="Registration window" className={`mb-4 rounded-md px-4 py-3 ring-1 ${tone}`}>
      <p className="font-semibold" data-testid="registration-countdown">
        {headline}
      </p>
      {window.diet && (
        <p className="mt-1 text-sm">
          {window.diet.name} ({window.diet.code}):{' '}
          {window.open || !window.next_change_at
            ? `registration ${window.open ? 'closes' : 'closed'} at ${formatDateTime(closesFor!)}`
            : `registration opens at ${formatDateTime(window.opens_at!)}`}{' '}
          (Lagos time).
        </p>
      )}
      {window.extension && (
        <p className="mt-1 text-sm">
          The board has extended registration for your school until {formatDateTime(window.extension.until)}:{' '}
          {window.extension.reason}
        </p>
      )}
    </section>
  );
}

/**
 * The notice's place while the window loads: the same frame holding two invisible lines of the usual
 * length, so the notice fills it rather than pushing the page below it down as it arrives (a layout
 * shift: Lighthouse measured 0.10-0.11 on a school's Registered list).
 */
function Reserved() {
  return (
    <div
      aria-hidden="true"
      data-testid="registration-countdown-reserved"
      className="invisible mb-4 rounded-md px-4 py-3 ring-1"
    >
      <p className="font-semibold">Registration closes in 10 days 10 hours</p>
      <p className="mt-1 text-sm">
        Diet of the month (XXX-0000): registration closes at 00/00/0000 00:00 (Lagos time).
      </p>
    </div>
  );
}
