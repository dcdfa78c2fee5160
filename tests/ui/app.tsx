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
 * The board admin's token, from the real two-step sign-in over HTTP, done once for the whole project
 * (portal.setup.ts): a returning user's cookie.
 */
export const adminToken = async (): Promise<string> => inject('adminToken');
