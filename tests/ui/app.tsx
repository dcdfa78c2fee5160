import { render } from '@testing-library/react';
import { inject } from 'vitest';
import { readMailedCode } from '../api/portal';

/** The ui project's portal (started in portal.setup.ts). */
export const portal = {
  url: inject('portalUrl'),
  readCode: (email: string) => readMailedCode(inject('portalDataDir'), email),
};

/**
 * The real App with its real actors, opened at `path`. Imported late, because the API client reads its
 * base URL (VITE_API_URL, stubbed by the test file) when it loads.
 */
export async function renderApp(path: string) {
  window.history.replaceState(null, '', path);
  const { App } = await import('../../src/App');
  const { ActorsProvider } = await import('../../src/app/actors');
  const { createAppActors } = await import('../../src/app/appActors');
  const actors = createAppActors();
  render(
    <ActorsProvider actors={actors}>
      <App />
    </ActorsProvider>,
  );
  return actors;
}

/**
 * Signed in as the board admin, as a returning user whose token is in the cookie. The real two-step
 * sign-in is done once for the whole project (portal.setup.ts).
 */
export function signedInAsAdmin() {
  document.cookie = `token=${inject('adminToken')}; Path=/`;
  document.cookie = 'user_role=admin; Path=/';
}
