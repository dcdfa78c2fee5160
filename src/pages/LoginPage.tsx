import type { FormEvent } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { CONFIRM_CODE_PATH, FORGOT_PASSWORD_PAGE, RESET_PASSWORD_PAGE } from '../../contract/navigation';
import { useActors, useSession } from '../app/actors';
import { prepareSignIn } from '../api/session';
import { loadShell } from '../app/chunks';
import { redirectTarget } from '../app/redirect';
import { Alert, Button, Splash, TextField } from '../ui/controls';
import { AuthLayout } from './AuthLayout';

export function LoginPage() {
  const { session } = useActors();
  const search = useSearch();
  const view = useSession((s) => ({
    signedIn: s.hasTag('signedIn'),
    awaitingCode: s.hasTag('awaitingCode'),
    busy: s.matches('signingIn'),
    loading: s.matches('starting') || s.matches('loadingProfile') || s.matches('signingOut'),
    error: s.context.error,
    fields: s.context.fieldErrors,
    expired: s.context.endedBecause === 'expired',
  }));

  if (view.signedIn) return <Redirect to={redirectTarget(search)} replace />;
  if (view.awaitingCode) return <Redirect to={`${CONFIRM_CODE_PATH}${search ? `?${search}` : ''}`} replace />;
  if (view.loading) return <Splash message="Loading your portal…" />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    session.send({
      type: 'session.signIn',
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    });
    // The code step comes next and the shell after it: fetch it while the user reads their mail.
    loadShell().catch(() => {}); // Not there yet: the shell loads when it is needed, as before.
  };
  const fieldError = (name: string) => view.fields[name]?.[0];
  const generalError = view.error && !Object.keys(view.fields).length ? view.error : null;

  return (
    <AuthLayout title="Sign in">
      <form onSubmit={submit} onFocus={prepareSignIn} className="space-y-4" noValidate={false}>
        {view.expired && <Alert tone="info">Your session has ended. Please sign in again.</Alert>}
        {generalError && <Alert tone="error">{generalError}</Alert>}
        <TextField
          label="Email address"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          error={fieldError('email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={fieldError('password')}
        />
        <Button type="submit" className="w-full" busy={view.busy} busyLabel="Signing in…">
          Sign in
        </Button>
        <p className="text-xs text-slate-500">We will email you a 6-digit code to confirm it is you.</p>
        <p className="flex flex-wrap justify-between gap-2 text-sm">
          <Link href={FORGOT_PASSWORD_PAGE} className="text-brand-700 hover:underline">
            Forgot your password?
          </Link>
          <Link href={RESET_PASSWORD_PAGE} className="text-brand-700 hover:underline">
            Reset your password with a code
          </Link>
        </p>
      </form>
    </AuthLayout>
  );
}
