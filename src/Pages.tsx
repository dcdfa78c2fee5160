import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { FORGOT_PASSWORD_PAGE, RESET_PASSWORD_PAGE, VERIFY_PATH } from '../contract/paths';
import { STATECHARTS_PATH } from '../contract/paths';
import { loadShell } from './app/chunks';
import { RequireSession } from './app/RequireSession';
import { Splash } from './ui/controls';

// Everything behind sign-in is its own chunk (the toasts too): /login loads only what it needs.
const Shell = lazy(loadShell);
const PrintDocumentPage = lazy(() => import('./pages/PrintDocumentPage'));
// Public, and carries VineJS for its checks: its own chunk too.
const ResetPasswordPage = lazy(() => import('./pages/ResetPasswordPage'));
const ForgotPasswordPage = lazy(() => import('./pages/ForgotPasswordPage'));
// Public, opened from a QR code on a phone: a chunk of its own, as small as it can be.
const VerifyPage = lazy(() => import('./pages/VerifyPage'));
// Public (it holds no data) and carries every chart's data: its own chunk.
const StatechartsPage = lazy(() => import('./statecharts/StatechartsPage'));

/**
 * Every page but /login and the code step: a chunk of its own, which the entry does without (src/App.tsx); the HTML of
 * these pages preloads it beside the app's actors (scripts/prerenderLogin.ts).
 */
export default function Pages() {
  return (
    <Switch>
      <Route path={RESET_PASSWORD_PAGE}>
        <Suspense fallback={<Splash message="Loading…" />}>
          <ResetPasswordPage />
        </Suspense>
      </Route>
      <Route path={FORGOT_PASSWORD_PAGE}>
        <Suspense fallback={<Splash message="Loading…" />}>
          <ForgotPasswordPage />
        </Suspense>
      </Route>
      <Route path={`${VERIFY_PATH}/:code?`}>
        {(params) => (
          <Suspense fallback={<Splash message="Loading…" />}>
            <VerifyPage code={params.code} />
          </Suspense>
        )}
      </Route>
      <Route path={STATECHARTS_PATH}>
        <Suspense fallback={<Splash message="Loading…" />}>
          <StatechartsPage />
        </Suspense>
      </Route>
      <Route path="/print-document/:ending">
        {(params) => (
          <RequireSession>
            <Suspense fallback={<Splash message="Loading…" />}>
              <PrintDocumentPage ending={params.ending} />
            </Suspense>
          </RequireSession>
        )}
      </Route>
      <Route>
        <RequireSession>
          <Suspense fallback={<Splash message="Loading…" />}>
            <Shell />
          </Suspense>
        </RequireSession>
      </Route>
    </Switch>
  );
}
