/**
 * The paths the app's entry needs before any page's chunk: the signed-out pages, where a session lands
 * and which pages have no shell. Kept apart from contract/navigation.ts (the sidebar, the sub-pages, the
 * print documents' titles), which the entry would otherwise carry whole to /login (issue 28, item 2).
 */

/** Where the portal shows its statecharts (public: the page holds no data); contract/statecharts.ts links into it. */
export const STATECHARTS_PATH = '/statecharts';
export const PRINT_DOCUMENT_PREFIX = '/print-document/';

export const HOME_PATH = '/overview';
export const LOGIN_PATH = '/login';
export const CONFIRM_CODE_PATH = '/auth-confirm-code';
/** The public page where a mailed password-reset code is used (no shell, like /login). */
export const RESET_PASSWORD_PAGE = '/reset-password';
/** 'Forgot your password?': asks for a reset code by email, then goes on to RESET_PASSWORD_PAGE. */
export const FORGOT_PASSWORD_PAGE = '/forgot-password';
/** The public page where anyone holding a printed document checks its code (no sign-in, no shell). */
export const VERIFY_PATH = '/verify';
export const REDIRECT_PARAM = 'redirect-to';

/**
 * Pages shown without header and sidebar: the spec's, the password pages beside /login, the public
 * check of a printed document's code (/verify, /verify/<code>) and the public /statecharts. Also read
 * by the build's shell preload (scripts/prerenderLogin.ts), which must skip the same pages.
 */
export const SHELL_LESS = {
  paths: [
    LOGIN_PATH,
    CONFIRM_CODE_PATH,
    RESET_PASSWORD_PAGE,
    FORGOT_PASSWORD_PAGE,
    VERIFY_PATH,
    STATECHARTS_PATH,
  ],
  prefixes: [PRINT_DOCUMENT_PREFIX, `${VERIFY_PATH}/`],
};

export function isShellLess(path: string): boolean {
  return SHELL_LESS.paths.includes(path) || SHELL_LESS.prefixes.some((prefix) => path.startsWith(prefix));
}
