import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { LOGIN_PATH } from '../contract/paths';
import { Root } from './Root';

/**
 * /login's HTML, rendered at build time (vite.config.ts) as the browser's first render of it is: the
 * app's root with no actors yet, at /login, signed out. src/main.tsx hydrates it.
 */
export const renderLogin = () =>
  renderToString(
    <Router ssrPath={LOGIN_PATH}>
      <Root initial={null} />
    </Router>,
  );
