import type { AppActors } from './appActors';

let loading: Promise<AppActors> | null = null;

/**
 * The app-wide actors, made once, from their own chunk (XState, the machines and the API client):
 * /login's entry does without it until the form is used.
 */
export function loadActors(): Promise<AppActors> {
  loading ??= import('./appActors').then(({ createAppActors }) => createAppActors());
  return loading;
}

/**
 * The full stylesheet, on a /login rendered at build time: that page carries only its own rules inline
 * and names the full sheet in `<meta name="portal-styles">` (vite.config.ts); it is fetched when the user
 * signs in or leaves /login. Every other page links it in its HTML, and this does nothing.
 */
export function loadFullStyles() {
  const href = document.querySelector<HTMLMetaElement>('meta[name="portal-styles"]')?.content;
  if (!href || document.querySelector(`link[rel="stylesheet"][href="${href}"]`)) return;
  document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href }));
}
