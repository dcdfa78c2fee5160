import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

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

/** The ids a field's input is described by: its error and its hint (src/ui/DateField.tsx too). */
export function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

export function FieldFrame({
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

export const inputLook = (error?: string) =>
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
