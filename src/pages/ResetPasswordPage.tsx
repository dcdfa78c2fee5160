import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { CONFIRM_CODE_LENGTH } from '../../contract/auth';
import { LOGIN_PATH } from '../../contract/paths';
import { PASSWORD_MIN_LENGTH } from '../../contract/profile';
import { RESET_MESSAGES } from '../../contract/schools';
import { formDialogMachine } from '../../machines/formDialog.machine';
import { resetPassword } from '../api/passwordReset';
import { Alert, Button, TextField } from '../ui/controls';
import { formValuesOf } from '../ui/formValues';
import { NewPasswordFields } from '../ui/NewPasswordFields';
import { AuthLayout } from './AuthLayout';
import { useOpenForm } from './openForm';

const machine = formDialogMachine.provide({ actors: { submit: resetPassword } });

/**
 * /reset-password (no shell): the code the board mailed, and a new password. The form is the form
 * dialog machine, started open: success closes it, which this page shows as done.
 */
export default function ResetPasswordPage() {
  // Coming from 'Forgot your password?': the address is filled in and the page says a code is coming.
  const params = new URLSearchParams(useSearch());
  // A board admin's invitation link (issue 26) carries the address and the code in the fragment, which
  // the browser never sends to a server: both are filled in, and the page is about a first password.
  const [link] = useState(() => new URLSearchParams(window.location.hash.slice(1)));
  const invited = link.get('invitation') === '1';
  const givenEmail = params.get('email') ?? link.get('email') ?? undefined;
  const givenCode = link.get('code') ?? undefined;
  const codeAsked = params.get('sent') === '1';
  const { form, view } = useOpenForm(machine, RESET_MESSAGES.done);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.send({ type: 'form.submit', values: formValuesOf(event.currentTarget) });
  };
  const fieldError = (name: string) => view.fields[name]?.[0];

  if (view.done) {
    return (
      <AuthLayout title="Password set">
        <div className="space-y-4">
          <p role="status" className="text-slate-700">
            {RESET_MESSAGES.done}
          </p>
          <Link href={LOGIN_PATH} className="font-semibold text-brand-700 hover:underline">
            Go to sign in
          </Link>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={invited ? 'Set your password' : 'Reset your password'}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={view.busy || undefined}>
        {codeAsked && <Alert tone="info">{RESET_MESSAGES.codeMailed}</Alert>}
        <p className="text-sm text-slate-600">
          Enter your email address, the {CONFIRM_CODE_LENGTH}-digit code we emailed you, and your new
          password.
        </p>
        {view.error && <Alert tone="error">{view.error}</Alert>}
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          defaultValue={givenEmail}
          error={fieldError('email')}
        />
        <TextField
          label="Code from the email"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CONFIRM_CODE_LENGTH}
          defaultValue={givenCode}
          autoFocus={Boolean(givenEmail) && !givenCode}
          error={fieldError('code')}
        />
        <NewPasswordFields fieldError={fieldError} hint={`At least ${PASSWORD_MIN_LENGTH} characters`} />
        <Button type="submit" className="w-full" busy={view.busy} busyLabel="Saving…">
          Set my password
        </Button>
        <p className="text-sm">
          <Link href={LOGIN_PATH} className="text-brand-700 hover:underline">
            Back to sign in
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
