/**
 * Every page but /login (the code step, the public pages, the shell's route): loaded with the actors.
 * A file of its own: Pages.tsx loads the shell through chunks.ts, which must not name Pages back.
 */
export const loadPages = () => import('../Pages');
