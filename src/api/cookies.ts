import { IMPERSONATION_COOKIE } from '../../contract/impersonation';
import { isRole, ROLE_COOKIE, TOKEN_COOKIE, type Role } from '../../contract/roles';

/** The token and the role live in cookies, as the spec says; session cookies, so closing the browser
 * of a shared computer ends them. */
function read(name: string): string | null {
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : null;
}

function write(name: string, value: string) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; SameSite=Strict${secure}`;
}

function remove(name: string) {
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Strict`;
}

export const readToken = () => read(TOKEN_COOKIE);

export function readRole(): Role | null {
  const role = read(ROLE_COOKIE);
  return isRole(role) ? role : null;
}

export function storeSession(token: string, role: Role) {
  write(TOKEN_COOKIE, token);
  write(ROLE_COOKIE, role);
}

/** Ends the session in this browser, an impersonation included. */
export function clearSession() {
  remove(TOKEN_COOKIE);
  remove(ROLE_COOKIE);
  remove(IMPERSONATION_COOKIE);
}

export const readImpersonationToken = () => read(IMPERSONATION_COOKIE);

export function storeImpersonationToken(token: string | null) {
  if (token) write(IMPERSONATION_COOKIE, token);
  else remove(IMPERSONATION_COOKIE);
}
