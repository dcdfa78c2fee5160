import { expect, test } from '@playwright/test';
import { fillPath } from '../../contract/endpoint';
import { SIDEBAR } from '../../contract/navigation';
import { SCHOOL_ENDPOINTS } from '../../contract/schools.endpoints';
import { uniqueLetters } from './indexing';
import { apiSignIn, readMailedCode, signIn } from './support';

const labelsFor = (role: 'admin' | 'school_admin') =>
  SIDEBAR.filter((entry) => entry.roles.includes(role)).map((entry) => entry.label);

test('an admin signs in with the mailed code and sees the whole sidebar', async ({ page }) => {
  await signIn(page, 'admin@example.org');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The shell suite may have renamed her; the first name stays.
  await expect(page.getByText(/^Welcome, Adaeze/)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  // Notifications may carry the unread count (the demo has some unless another spec read them).
  await expect(nav.getByRole('link')).toHaveText(
    labelsFor('admin').map((label) => new RegExp(`^${label}(\\d+|99\\+)?$`)),
  );
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');

  await nav.getByRole('link', { name: 'Score Entry' }).click();
  await expect(page).toHaveURL(/\/score$/);
  await expect(page.getByRole('heading', { name: 'Score Entry' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add a score sheet' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Score Entry' })).toHaveAttribute('aria-current', 'page');
  // The header's pages open in the shell by their address too (issue 26 built the last of them).
  await page.goto('/broadcast-school');
  await expect(page.getByRole('heading', { name: 'Send a broadcast' })).toBeVisible();

  // Log out asks first; Cancel keeps the session, Yes ends it and lands on /login.
  await page.getByRole('button', { name: /profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByText('Are you sure you want to log out?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Are you sure you want to log out?')).toBeHidden();
  await page.getByRole('button', { name: /profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'token')).toBeUndefined();

  // The revoked session does not come back on a reload of a protected page.
  await page.goto('/overview');
  await expect(page).toHaveURL(/\/login\?redirect-to=%2Foverview$/);

  // The browser is known to the account now (issue 10): an HttpOnly cookie, out of scripts' reach and
  // sent only to the sign-in routes, which the next password step carries, so that strangers' wrong
  // passwords cannot lock this browser out.
  const known = (await page.context().cookies()).find((cookie) => cookie.name === 'known_browser');
  expect(known).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
  expect(await page.evaluate(() => document.cookie)).not.toContain('known_browser');
  const nextLogin = page.waitForRequest((request) => request.url().endsWith('/api/auth/login'));
  await signIn(page, 'admin@example.org');
  expect((await (await nextLogin).allHeaders()).cookie).toContain(`known_browser=${known!.value}`);
});

test('a school admin sees only their five entries and is told an admin page is not for their role', async ({
  page,
}) => {
  await signIn(page, 'school1@example.org');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByText('School of Health Technology, Ibadan (SHT-IB)')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(labelsFor('school_admin'));
  await expect(nav.getByRole('link')).toHaveText([
    'Dashboard',
    'Registered Candidates',
    'Resit Candidates',
    'Print Documents',
    'Payments',
  ]);

  await page.goto('/school');
  await expect(page.getByRole('heading', { name: 'Not available for your role' })).toBeVisible();

  // The API refuses the same with 403, whatever the browser shows.
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')!.value;
  const response = await page.request.get('/api/admin/user-profile-information', {
    headers: { Authorization: `Bearer ${decodeURIComponent(token)}` },
  });
  expect(response.status()).toBe(403);
});

test('an expired session sends the user to /login with redirect-to, and back there after signing in', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await expect(page).toHaveURL(/\/overview$/);
  // The server forgets the token (here: it is revoked through the API, as a logout elsewhere would).
  const token = decodeURIComponent((await page.context().cookies()).find((c) => c.name === 'token')!.value);
  await page.request.post('/api/auth/logout', { headers: { Authorization: `Bearer ${token}` } });

  await page.goto('/candidate/candidate-search');
  await expect(page).toHaveURL(/\/login\?redirect-to=%2Fcandidate%2Fcandidate-search$/);
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();

  await signIn(page, 'admin@example.org', page.url());
  await expect(page).toHaveURL(/\/candidate\/candidate-search$/);
  await expect(page.getByRole('heading', { name: 'Candidate Search' })).toBeVisible();
});

test('a wrong password is refused beside the field and the typed email stays', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email address').fill('school2@example.org');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue('school2@example.org');
});

test("'Forgot your password?' mails a code to the account's address, and the code sets a new password", async ({
  page,
  request,
}) => {
  // An account of its own, so the demo sign-ins keep their passwords.
  const admin = await apiSignIn(request, 'admin@example.org');
  const headers = { Authorization: `Bearer ${admin}` };
  const schools = await request.get(`${SCHOOL_ENDPOINTS.list.path}?search=SHT-IB`, { headers });
  const school = (await schools.json()).data.items.find((row: { code: string }) => row.code === 'SHT-IB');
  const email = `forgetful.${uniqueLetters().toLowerCase()}@example.org`;
  const added = await request.post(fillPath(SCHOOL_ENDPOINTS.addAdmin.path, { id: school.id }), {
    headers,
    data: { name: 'Kemi Forgetful', email },
  });
  expect(added.status()).toBe(200);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  // Refused in the user's words, and nothing is sent.
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByLabel('Email address')).toHaveAccessibleDescription('Email address is required');

  const since = Date.now() - 1000;
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page).toHaveURL(/\/reset-password\?/);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'a code to set a new password is on its way' }),
  ).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue(email);

  const code = await readMailedCode(email, since, 'Your password reset code');
  await page.getByLabel('Code from the email').fill(code);
  await page.getByLabel('New password').fill('a-forgotten-one-2026');
  await page.getByLabel('Confirm password').fill('a-forgotten-one-2026');
  await page.getByRole('button', { name: 'Set my password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been set' })).toBeVisible();
  await signIn(page, email, '/login', 'a-forgotten-one-2026');
  await expect(page.getByText('Welcome, Kemi Forgetful.')).toBeVisible();
});

test("'Forgot your password?' answers an address with no account exactly as one with an account", async ({
  page,
}) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email address').fill('nobody.at.all@example.org');
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page).toHaveURL(/\/reset-password\?/);
  await expect(
    page.getByRole('status').filter({ hasText: 'a code to set a new password is on its way' }),
  ).toBeVisible();
});
