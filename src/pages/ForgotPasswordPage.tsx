import { useState, type FormEvent } from 'react';
import { Link, Redirect } from 'wouter';
import { LOGIN_PATH, RESET_PASSWORD_PAGE } from '../../contract/paths';
import { RESET_MESSAGES } from '../../contract/schools';
import { formDialogMachine } from '../../machines/formDialog.machine';
import { requestResetCode } from '../api/passwordReset';
import { Alert, Button, TextField } from '../ui/controls';
import { formValuesOf } from '../ui/formValues';
import { AuthLayout } from './AuthLayout';
import { useOpenForm } from './openForm';

const machine = formDialogMachine.provide({ actors: { submit: requestResetCode } });

/** Where the code is entered: the reset page, told the address and that a code was asked for. */
const resetPageFor = (email: string) => `${RESET_PASSWORD_PAGE}?${new URLSearchParams({ email, sent: '1' })}`;

/**
 * /forgot-password (no shell): asks for the account's email address and has a reset code mailed to
 * it, then goes on to the reset page (code and new password). The form is the form dialog machine
 * started open, as on the reset page: success closes it.
 */
export default function ForgotPasswordPage() {
  const { form, view } = useOpenForm(machine, RESET_MESSAGES.codeMailed);
  // The address as sent, for the next page's email field (the machine keeps no values).
  const [email, setEmail] = useState('');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValuesOf(event.currentTarget);
    setEmail(String(values.email ?? '').trim());
    form.send({ type: 'form.submit', values });
  };

  if (view.done) return <Redirect to={resetPageFor(email)} />;
  return (
    <AuthLayout title="Forgot your password?">
      <form onSubmit={submit} noValidate className="space-y-4" aria-busy={view.busy || undefined}>
        <p className="text-sm text-slate-600">
          Enter the email address you sign in with. We will email it a 6-digit code to set a new password.
        </p>
        {view.error && <Alert tone="error">{view.error}</Alert>}
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          error={view.fields.email?.[0]}
        />
        <Button type="submit" className="w-full" busy={view.busy} busyLabel="Sending…">
          Email me a code
        </Button>
        <p className="flex flex-wrap justify-between gap-2 text-sm">
          <Link href={LOGIN_PATH} className="text-brand-700 hover:underline">
            Back to sign in
          </Link>
          <Link href={RESET_PASSWORD_PAGE} className="text-brand-700 hover:underline">
            I already have a code
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
