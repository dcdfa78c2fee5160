import type { LoginChallenge } from '../../contract/auth';

const PENDING_LOGIN_KEY = 'pending-login';

/** A sign-in waiting for its code survives a reload (a phone may drop the tab while the user reads
 * the mail); sessionStorage keeps it to this tab only. Apart from the session's I/O (session.ts) so
 * that /login's entry can ask for it without loading that. */
export function readPendingLogin(): LoginChallenge | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(PENDING_LOGIN_KEY) ?? 'null');
    return stored && typeof stored.login_id === 'string' && typeof stored.email === 'string' ? stored : null;
  } catch {
    return null;
  }
}

export function writePendingLogin(challenge: LoginChallenge | null) {
  if (challenge) sessionStorage.setItem(PENDING_LOGIN_KEY, JSON.stringify(challenge));
  else sessionStorage.removeItem(PENDING_LOGIN_KEY);
}
