import { loadShell } from './chunks';

/**
 * Every page but /login (the code step, the public pages, the shell's route): loaded with the actors.
 * A file of its own: Pages.tsx loads the shell through chunks.ts, which must not name Pages back.
 */
export const loadPages = () => import('../Pages');
/** A signed-in page opened cold: its chunks and its first paint's data, asked for beside the actors (src/main.tsx). */
export const preloadPage = (path: string) =>
  import('../shell/pageChunks').then(({ preloadPage }) => preloadPage(path, loadShell));
/** The sign-in's target page's chunks (not its data: there is no session yet), asked for at the password's submit. */
export const preloadPageChunks = (path: string) =>
  import('../shell/pageTable').then(({ preloadPageChunks }) => preloadPageChunks(path, loadShell));
