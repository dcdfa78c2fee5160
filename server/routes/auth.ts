import { getCookie, setCookie } from 'hono/cookie';
import { AUTH_MESSAGES } from '../../contract/auth';
import { AUTH_ENDPOINTS as E } from '../../contract/auth.endpoints';
import { CONFIRM_CODE_PATH } from '../../contract/paths';
import { KNOWN_BROWSER_COOKIE, KNOWN_BROWSER_DAYS, KNOWN_BROWSER_PATH } from '../auth/knownBrowsers';
import { CODE_TTL_MINUTES, confirmSignIn, resendCode, signOut, startSignIn } from '../auth/service';
import { Refused } from '../errors';
import { actorOf, callerOf, dbOf, transact, type AppContext } from '../http/context';
import { ok } from '../http/respond';
import { serve, type Route } from '../http/route';
import { findUserView } from '../users';

export { LOGIN_LIMITS } from '../auth/service';

async function mailCode(c: AppContext, email: string, code: string) {
  const { mailer, config } = c.get('deps');
  await mailer.send({
    to: email,
    kind: 'sign-in code',
    subject: `Your sign-in code: ${code}`,
    text: [
      `Your sign-in code is ${code}.`,
      '',
      `Enter it on the portal within ${CODE_TTL_MINUTES} minutes: ${config.publicUrl}${CONFIRM_CODE_PATH}`,
      'If you did not try to sign in, someone may know your password: change it after signing in.',
    ].join('\n'),
  });
}

/** Signing in and out (server/auth/service.ts). */
export const authRoutes: Route[] = [
  serve(E.login, async (c) => {
    const started = await startSignIn(
      dbOf(c),
      actorOf(c),
      c.req.valid('json'),
      getCookie(c, KNOWN_BROWSER_COOKIE),
    );
    await mailCode(c, started.email, started.code);
    return ok(c, { login_id: started.loginId, email: started.email }, AUTH_MESSAGES.codeSent);
  }),

  serve(E.confirmCode, async (c) => {
    const { config } = c.get('deps');
    const { userId, token, browser } = await confirmSignIn(
      dbOf(c),
      actorOf(c),
      c.req.valid('json'),
      config.tokenTtlMinutes,
      getCookie(c, KNOWN_BROWSER_COOKIE),
    );
    // HttpOnly and sent only to the sign-in routes: no script reads it, no other request carries it.
    setCookie(c, KNOWN_BROWSER_COOKIE, browser, {
      httpOnly: true,
      sameSite: 'Strict',
      path: KNOWN_BROWSER_PATH,
      secure: config.publicUrl.startsWith('https:'),
      maxAge: KNOWN_BROWSER_DAYS * 24 * 60 * 60,
    });
    const user = await findUserView(dbOf(c), userId);
    if (!user) throw new Refused(410, AUTH_MESSAGES.loginExpired);
    return ok(c, { user, access_token: token });
  }),

  serve(E.resendCode, async (c) => {
    const sent = await resendCode(dbOf(c), c.req.valid('json'));
    await mailCode(c, sent.email, sent.code);
    return ok(c, undefined, 'A new code has been sent to your email address.');
  }),

  serve(E.logout, async (c) => {
    const { tokenId } = callerOf(c);
    await transact(c, (tx, actor) => signOut(tx, actor, tokenId));
    return ok(c, undefined, AUTH_MESSAGES.loggedOut);
  }),
];
