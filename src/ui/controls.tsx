import {
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { BOARD_DATE_PATTERN, parseBoardDate } from '../../contract/dates';
import { formatDate } from '../../contract/format';

/** The few controls every page shares, so a label, a hint and an error always sit the same way. */

export function Button({
  variant = 'primary',
  busy = false,
  busyLabel,
  children,
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  ref?: Ref<HTMLButtonElement>;
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  busy?: boolean;
  busyLabel?: string;
}) {
  const look = {
    primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60',
    secondary:
      'bg-white text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 disabled:bg-slate-100 disabled:text-slate-400 disabled:ring-slate-200',
    danger: 'bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60',
    link: 'text-brand-700 underline-offset-2 hover:underline px-0 disabled:text-slate-400 disabled:no-underline',
  }[variant];
  return (
    <button
      {...props}
      disabled={props.disabled || busy}
      aria-busy={busy || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-semibold ${look} disabled:cursor-not-allowed ${className}`}
    >
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

function FieldFrame({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

const inputLook = (error?: string) =>
  `block w-full rounded-md border px-3 py-2 text-base shadow-sm sm:text-sm ${
    error ? 'border-red-600' : 'border-slate-300'
  } focus:border-brand-600 focus:outline-none focus:ring-1 focus:ring-brand-600`;

export function TextField({
  label,
  error,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
}) {
  const id = props.id ?? `field-${props.name}`;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={inputLook(error)}
      />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
}) {
  const id = props.id ?? `field-${props.name}`;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <select
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={inputLook(error)}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
}) {
  const id = props.id ?? `field-${props.name}`;
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={inputLook(error)}
      />
    </FieldFrame>
  );
}

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

export function Alert({ tone, children }: { tone: 'error' | 'info'; children: ReactNode }) {
  const look =
    tone === 'error' ? 'bg-red-50 text-red-800 ring-red-200' : 'bg-brand-50 text-brand-900 ring-brand-100';
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-md px-3 py-2 text-sm ring-1 ${look}`}
    >
      {children}
    </div>
  );
}

export function Splash({ message }: { message: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
      <div className="flex items-center gap-3 text-slate-600">
        <span className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
        {message}
      </div>
    </div>
  );
}
