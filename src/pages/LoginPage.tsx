import { useEffect, type FormEvent } from 'react';
import { Link, Redirect, useSearch } from 'wouter';
import { CONFIRM_CODE_PATH, FORGOT_PASSWORD_PAGE, RESET_PASSWORD_PAGE } from '../../contract/paths';
import { useLazyActors, useSessionOr } from '../app/actors';
import { loadPages, preloadPageChunks } from '../app/pagesChunk';
import { replayEarlySubmit } from '../app/earlySubmit';
import { loadFullStyles } from '../app/loadActors';
import { redirectTarget } from '../app/redirect';
import { Alert, Button, Splash, TextField } from '../ui/controls';
import { AuthLayout } from './AuthLayout';

/** The form as it is before the actors are loaded (and as the build renders it): signed out, nothing sent. */
const SIGNED_OUT = {
  signedIn: false,
  awaitingCode: false,
  busy: false,
  loading: false,
  error: null,
  fields: {},
  expired: false,
};

/**
 * Starts loading what the sign-in needs as the user starts typing: the app's actors (their chunk) and the
 * sign-in's checks, so the POST does not wait for them.
 */
function prepare(load: () => Promise<unknown>) {
  load()
    .then(() => import('../api/session'))
    .then(({ prepareSignIn }) => prepareSignIn())
    .catch(() => {}); // Not there yet (offline): the submit asks again.
}

export function LoginPage() {
  const { load } = useLazyActors();
  const search = useSearch();
  useEffect(replayEarlySubmit, []);
  const view = useSessionOr(
    (s) => ({
      signedIn: s.hasTag('signedIn'),
      awaitingCode: s.hasTag('awaitingCode'),
      busy: s.matches('signingIn'),
      loading: s.matches('starting') || s.matches('loadingProfile') || s.matches('signingOut'),
      error: s.context.error,
      fields: s.context.fieldErrors,
      expired: s.context.endedBecause === 'expired',
    }),
    SIGNED_OUT,
  );

  if (view.signedIn) return <Redirect to={redirectTarget(search)} replace />;
  if (view.awaitingCode) return <Redirect to={`${CONFIRM_CODE_PATH}${search ? `?${search}` : ''}`} replace />;
  if (view.loading) return <Splash message="Loading your portal…" />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const signIn = {
      type: 'session.signIn',
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    } as const;
    // Sent as soon as the actors are there (at once, unless the form was submitted before they loaded).
    void load().then(({ session }) => session.send(signIn));
    // The code step comes next, then the shell and the page signed in to: fetch them while the user reads
    // their mail (not there yet, offline: they load when needed, as before).
    loadPages().catch(() => {});
    preloadPageChunks(redirectTarget(search)).catch(() => {});
    loadFullStyles();
  };
  const fieldError = (name: string) => view.fields[name]?.[0];
  const generalError = view.error && !Object.keys(view.fields).length ? view.error : null;

  return (
    <AuthLayout title="Sign in">
      {/* POST: a submit no script catches (before hydration) never puts the password in an address. */}
      <form
        method="post"
        onSubmit={submit}
        onFocus={() => prepare(load)}
        className="space-y-4"
        noValidate={false}
      >
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
