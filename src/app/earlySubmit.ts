/**
 * /login's HTML rendered at build time shows the form before its script has run: typing works, and a
 * submit made then is held back by the page's inline script (scripts/prerenderLogin.ts), which would
 * otherwise send the password in a GET. Once React owns the form (hydrated), that submit is made again.
 */
export const EARLY_SUBMIT_SCRIPT =
  'addEventListener("submit",function(e){if(!window.portalHydrated){e.preventDefault();window.portalPendingSubmit=e.target}},true)';

interface EarlyWindow {
  portalHydrated?: boolean;
  portalPendingSubmit?: HTMLFormElement;
}

/** Called once the login form is hydrated (an effect): submits are React's from now on. */
export function replayEarlySubmit() {
  const early = window as EarlyWindow;
  early.portalHydrated = true;
  const form = early.portalPendingSubmit;
  delete early.portalPendingSubmit;
  if (form?.isConnected) form.requestSubmit();
}
