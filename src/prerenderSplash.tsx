import { renderToStaticMarkup } from 'react-dom/server';
import { Splash } from './ui/controls';

/**
 * What every page but /login first shows (the `Splash` of src/App.tsx and RequireSession), rendered at
 * build time into dist/index.html (scripts/prerenderSplash.ts), so it is painted with the HTML and the
 * stylesheet instead of after the scripts. React replaces it when it mounts (src/main.tsx).
 */
export const renderSplash = () => renderToStaticMarkup(<Splash message="Loading…" />);
