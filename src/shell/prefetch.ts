/** How long after the shell is first shown its page has usually drawn, on a slow link. */
const AFTER_MS = 3_000;

/**
 * The forms' checks (VineJS, 32 KB), which the pages a user opens first do without: fetched into the
 * cache once the page is up and the browser idle, as a prefetch (downloaded at the lowest priority, not
 * run), so the first form or list that needs them does not wait for them. The HTML names the file
 * (`<meta name="portal-prefetch">`, scripts/prerenderLogin.ts); in development it names none.
 */
export function prefetchLater(): () => void {
  const timer = setTimeout(() => {
    const names = document.querySelector<HTMLMetaElement>('meta[name="portal-prefetch"]')?.content ?? '';
    for (const href of names.split(' ').filter(Boolean)) {
      if (document.querySelector(`link[href="${href}"]`)) continue;
      document.head.append(
        Object.assign(document.createElement('link'), { rel: 'prefetch', crossOrigin: 'anonymous', href }),
      );
    }
  }, AFTER_MS);
  return () => clearTimeout(timer);
}
