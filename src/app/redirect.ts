import { HOME_PATH, LOGIN_PATH, REDIRECT_PARAM } from '../../contract/paths';

/** Where to go after signing in: the redirect-to parameter when it is a path of ours, else home. */
export function redirectTarget(search: string): string {
  const target = new URLSearchParams(search).get(REDIRECT_PARAM);
  // Only our own paths: '//evil.example' or 'https://...' would leave the portal.
  if (target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith(LOGIN_PATH)) {
    return target;
  }
  return HOME_PATH;
}

export function loginPathFor(currentPath: string, withRedirect: boolean): string {
  if (!withRedirect || currentPath === '/' || currentPath.startsWith(LOGIN_PATH)) return LOGIN_PATH;
  return `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(currentPath)}`;
}
