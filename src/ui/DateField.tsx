import { useRef, useState, type ReactNode } from 'react';
import { BOARD_DATE_PATTERN, parseBoardDate } from '../../contract/dates';
import { formatDate } from '../../contract/format';
import { describedBy, FieldFrame, inputLook } from './controls';

/**
 * A date typed as DD/MM/YYYY, the way the board writes dates, with a button that opens the browser's
 * calendar. The form sends `name` as YYYY-MM-DD (the API's form) when what was typed is a real date,
 * and as typed otherwise, so the validator, the browser's and the server's alike, answers with the
 * field's own message. `defaultValue` is YYYY-MM-DD, as the API gives it.
 */
export function DateField({
  label,
  name,
  error,
  hint,
  defaultValue,
  autoComplete,
}: {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  defaultValue?: string;
  autoComplete?: string;
}) {
  const id = `field-${name}`;
  // What is typed is the input's own state; the form reads the hidden input beside it.
  const [typed, setTyped] = useState(() => (defaultValue ? formatDate(defaultValue) : ''));
  const calendar = useRef<HTMLInputElement>(null);
  const iso = parseBoardDate(typed);
  const shownHint = (
    <>
      {BOARD_DATE_PATTERN}, e.g. 09/03/2001{hint ? <>. {hint}</> : null}
    </>
  );
  const openCalendar = () => {
    const input = calendar.current;
    if (!input) return;
    // showPicker is in every current browser; where it is missing, the typed date is the way in.
    if (typeof input.showPicker === 'function') input.showPicker();
  };
  return (
    <FieldFrame id={id} label={label} error={error} hint={shownHint}>
      <div className="flex gap-2">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          placeholder={BOARD_DATE_PATTERN}
          autoComplete={autoComplete ?? 'off'}
          maxLength={14}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, shownHint)}
          className={inputLook(error)}
        />
        <input type="hidden" name={name} value={iso ?? typed.trim()} />
        <span className="relative shrink-0">
          <button
            type="button"
            onClick={openCalendar}
            aria-label={`Calendar for ${label.replace(/\s*\*$/, '')}`}
            title="Choose from a calendar"
            className="flex h-full items-center rounded-md px-3 text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 focus:outline-none focus:ring-2 focus:ring-brand-600"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
              <path d="M6 2a1 1 0 0 1 1 1v1h6V3a1 1 0 1 1 2 0v1h1a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h1V3a1 1 0 0 1 1-1Zm10 7H4v7h12V9Z" />
            </svg>
          </button>
          {/* The browser's own calendar, opened by the button and placed under it; never focused. */}
          <input
            ref={calendar}
            type="date"
            tabIndex={-1}
            aria-hidden="true"
            value={iso ?? ''}
            onChange={(event) => {
              if (event.currentTarget.value) setTyped(formatDate(event.currentTarget.value));
            }}
            className="pointer-events-none absolute inset-0 h-full w-full opacity-0"
          />
        </span>
      </div>
    </FieldFrame>
  );
}
