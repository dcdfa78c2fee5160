import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { LOGIN_PATH } from '../contract/paths';
import { loadActors } from './app/loadActors';
import { preloadPage } from './app/pagesChunk';
import { readToken } from './api/cookies';
import { readPendingLogin } from './api/pendingLogin';
import { Root } from './Root';
import './styles.css';

const container = document.getElementById('root')!;
// /login's HTML rendered at build time (vite.config.ts) is hydrated as it is, with no actors yet: the
// form is usable before XState arrives. With a session or a sign-in waiting for its code the session
// decides where to go, so the actors come first and the page is rendered afresh, as is every other page.
if (
  container.dataset.prerendered === LOGIN_PATH &&
  location.pathname === LOGIN_PATH &&
  readToken() === null &&
  readPendingLogin() === null
) {
  hydrateRoot(container, <Root initial={null} />);
} else {
  // Signed in: the page's chunks and first reads come beside the actors, not after them.
  if (readToken() !== null && location.pathname !== LOGIN_PATH) void preloadPage(location.pathname);
  // The first render as a transition: React yields to the browser every few milliseconds while it
  // renders the shell and the page, instead of one long task a slow phone cannot answer a tap in.
  void loadActors().then((actors) =>
    startTransition(() => createRoot(container).render(<Root initial={actors} />)),
  );
}
