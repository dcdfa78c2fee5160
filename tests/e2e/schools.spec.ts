import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { TOKEN_COOKIE } from '../../contract/roles';
import { indexCandidate, listSettled, uniqueLetters } from './indexing';
import { signIn } from './support';

/** Training schools: suspending one stops its admin registering candidates; a new school, a new admin,
 * and the reset code that lets that admin set a password and sign in. */

const IBADAN = 'School of Health Technology, Ibadan';
const SUSPENDED = 'Your training school is suspended, so its candidates cannot be registered';

async function setIbadanStatus(request: APIRequestContext, token: string, status: 'active' | 'suspended') {
  const headers = { Authorization: `Bearer ${token}` };
  const list = await request.get('/api/admin/training-schools?search=SHT-IB', { headers });
  const [school] = (await list.json()).data.items;
  const response = await request.post(`/api/admin/training-schools/${school.id}/status`, {
    headers,
    data: { status },
  });
  expect(response.status()).toBe(200);
}

/** The bearer token of the page's session, as the SPA keeps it (the token cookie). */
async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === TOKEN_COOKIE);
  expect(cookie, 'the token cookie').toBeTruthy();
  return decodeURIComponent(cookie!.value);
}

async function openSchools(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Training Schools' })
    .click();
  await expect(page.getByRole('heading', { name: 'Training Schools' })).toBeVisible();
}

/** The newest password-reset code mailed to this address. */
async function readResetCode(email: string): Promise<string> {
  const dir = path.join(E2E_DATA_DIR, 'mail');
  let code: string | null = null;
  await expect
    .poll(() => {
      if (!fs.existsSync(dir)) return null;
      const newest = fs
        .readdirSync(dir)
        .filter((name) => name.endsWith(`-${email}.eml`))
        .sort()
        .pop();
      if (!newest) return null;
      code =
        /^Subject: Your password reset code: (\d{6})$/m.exec(
          fs.readFileSync(path.join(dir, newest), 'utf8'),
        )?.[1] ?? null;
      return code;
    })
    .not.toBeNull();
  return code!;
}

test.describe('suspending a school', () => {
  // The admin's session stays open (the school admin uses a browser of their own), so SHT-IB is made
  // active again after the test whatever happened in it: other specs register its candidates.
  let adminToken = '';
  test.afterAll(async ({ request }) => {
    if (adminToken) await setIbadanStatus(request, adminToken, 'active');
  });

  test('an admin suspends SHT-IB from the list, and its admin can no longer register a candidate', async ({
    page,
    browser,
    request,
  }) => {
    await signIn(page, 'admin@example.org');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    adminToken = await sessionToken(page);
    const last = `Suspended${uniqueLetters()}`;
    const index = await indexCandidate(
      request,
      adminToken,
      {
        first_name: 'Folake',
        last_name: last,
        school_code: 'SHT-IB',
      },
      { verified: true },
    );

    await openSchools(page);
    await page.getByRole('searchbox', { name: 'Search by code or name' }).fill('SHT-IB');
    await page.getByRole('button', { name: 'Search' }).click();
    // The old page stays on screen until the new one comes: a row changed before then is replaced.
    await listSettled(page);
    const row = page.getByRole('row').filter({ hasText: IBADAN });
    await expect(row).toHaveCount(1);
    const status = row.getByLabel(`Status of ${IBADAN}`);
    await expect(status).toHaveValue('active');

    // Suspending is confirmed first; cancelling leaves the school active.
    await status.selectOption('suspended');
    const confirm = page.getByRole('alertdialog', { name: 'Suspend SHT-IB?' });
    // The dialog's root box is empty (its panel is fixed), so its heading is what is seen.
    await expect(confirm.getByRole('heading', { name: 'Suspend SHT-IB?' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(status).toHaveValue('active');

    await status.selectOption('suspended');
    await confirm.getByRole('button', { name: 'Suspend' }).click();
    await expect(row.getByText('Saving…')).toBeHidden();
    await expect(status).toHaveValue('suspended');
    // The server holds it: the filter finds it among the suspended.
    await page.getByLabel('Status', { exact: true }).selectOption('suspended');
    await page.getByRole('button', { name: 'Search' }).click();
    await listSettled(page);
    await expect(page.getByRole('row').filter({ hasText: IBADAN })).toHaveCount(1);

    // Its admin still signs in and sees the school's candidates, but cannot register them.
    const schoolContext = await browser.newContext();
    const school = await schoolContext.newPage();
    await signIn(school, 'school1@example.org');
    // Told on the dashboard and above the registration list, before trying anything.
    const notice = school
      .getByRole('status')
      .filter({ hasText: `${IBADAN} (SHT-IB) is suspended by the board.` });
    await expect(notice).toContainText('you cannot register candidates until the board lifts the suspension');
    await school
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Registered Candidates' })
      .click();
    await expect(school.getByRole('heading', { name: 'Registered Candidates' })).toBeVisible();
    await expect(notice).toBeVisible();
    await school.getByLabel('Name or index number').fill(index);
    await school.getByRole('button', { name: 'Search' }).click();
    await listSettled(school);
    const candidateRow = school.getByRole('row').filter({ hasText: index });
    await expect(candidateRow).toHaveCount(1);
    const reg = candidateRow.getByLabel(`Registration status of Folake ${last}`);
    await expect(reg).toHaveValue('unregistered');
    await reg.selectOption('registered');
    await expect(candidateRow.getByRole('alert')).toHaveText(SUSPENDED);
    await expect(reg).toHaveValue('unregistered');

    // Active again, from the same list: no confirmation, and the school admin registers the candidate.
    await status.selectOption('active');
    await expect(row.getByText('Saving…')).toBeHidden();
    await expect(status).toHaveValue('active');
    await reg.selectOption('registered');
    await expect(candidateRow.getByText('Saving…')).toBeHidden();
    await expect(reg).toHaveValue('registered');
    await schoolContext.close();
  });
});

test('an admin creates a school and its admin, who sets a password with the mailed code; deactivated, they cannot sign in', async ({
  page,
  browser,
}) => {
  const code = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const name = `School of Nursing ${code}`;
  const email = `${code.toLowerCase()}@example.org`;

  await signIn(page, 'admin@example.org');
  await openSchools(page);
  await page.getByRole('button', { name: 'New school' }).click();
  const form = page.getByRole('dialog', { name: 'New training school' });
  // The browser checks first, with the same messages as the server.
  await form.getByRole('button', { name: 'Create school' }).click();
  await expect(form.getByText('School code is required', { exact: true })).toBeVisible();
  await expect(form.getByText('School name is required', { exact: true })).toBeVisible();
  await form.getByLabel('School code').fill('SHT-IB');
  await form.getByLabel('School name').fill(name);
  await form.getByLabel('State').fill('Ogun');
  await expect(form.getByLabel('Country')).toHaveValue('NG');
  await form.getByLabel('Contact email').fill('registry@example.org');
  await form.getByRole('button', { name: 'Create school' }).click();
  await expect(form.getByLabel('School code')).toHaveAccessibleDescription(
    /Another training school already has this code/,
  );
  await form.getByLabel('School code').fill(code);
  await form.getByRole('button', { name: 'Create school' }).click();
  await expect(form).toHaveCount(0);
  // Said in a toast that screen readers announce (issue 9: creates said nothing).
  await expect(
    page.getByRole('alert').filter({ hasText: 'The training school has been created.' }),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search by code or name' }).fill(code);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row.getByLabel(`Status of ${name}`)).toHaveValue('active');

  await row.getByRole('button', { name: `Add an admin to ${name}` }).click();
  const adminForm = page.getByRole('dialog', { name: `New school admin for ${code}` });
  await adminForm.getByLabel('Full name').fill('Adaeze Nwosu');
  await adminForm.getByLabel('Email address').fill(email);
  await adminForm.getByRole('button', { name: 'Add admin' }).click();
  await expect(adminForm).toHaveCount(0);
  await expect(
    page.getByRole('alert').filter({ hasText: 'The school admin has been added and emailed a code' }),
  ).toBeVisible();
  await expect(row.getByText(`Adaeze Nwosu (${email})`)).toBeVisible();

  // The board sends a second code: only that one works.
  const first = await readResetCode(email);
  await row.getByRole('button', { name: 'Send Adaeze Nwosu a password-reset code' }).click();
  const resetDialog = page.getByRole('dialog', { name: 'Send a password-reset code' });
  await resetDialog.getByRole('button', { name: 'Send code' }).click();
  await expect(resetDialog).toHaveCount(0);
  await expect.poll(async () => (await readResetCode(email)) !== first).toBe(true);
  const second = await readResetCode(email);

  // The new admin, in a browser of their own, sets a password from the sign-in page's link.
  const theirs = await browser.newContext();
  const adaeze = await theirs.newPage();
  await adaeze.goto('/login');
  await adaeze.getByRole('link', { name: 'Reset your password with a code' }).click();
  await expect(adaeze.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await adaeze.getByLabel('Email address').fill(email);
  await adaeze.getByLabel('Code from the email').fill(first);
  await adaeze.getByLabel('New password').fill('a-new-password-1');
  await adaeze.getByLabel('Confirm password').fill('a-new-password-1');
  await adaeze.getByRole('button', { name: 'Set my password' }).click();
  await expect(adaeze.getByLabel('Code from the email')).toHaveAccessibleDescription(
    /This code is wrong or no longer valid/,
  );
  await adaeze.getByLabel('Code from the email').fill(second);
  await adaeze.getByRole('button', { name: 'Set my password' }).click();
  await expect(adaeze.getByRole('status').filter({ hasText: 'Your password has been set' })).toBeVisible();
  await adaeze.getByRole('link', { name: 'Go to sign in' }).click();
  await signIn(adaeze, email, '/login', 'a-new-password-1');
  await expect(adaeze.getByText('Welcome, Adaeze Nwosu.')).toBeVisible();

  // Deactivated (after a confirmation), the account is signed out and cannot sign in again.
  const account = row.getByLabel('Account of Adaeze Nwosu');
  await account.selectOption('false');
  const confirm = page.getByRole('alertdialog', { name: 'Deactivate Adaeze Nwosu?' });
  await confirm.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByText('Saving…')).toBeHidden();
  await expect(account).toHaveValue('false');
  await expect(row.getByRole('button', { name: 'Log in as Adaeze Nwosu' })).toHaveCount(0);

  await adaeze.reload();
  await expect(adaeze.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await adaeze.getByLabel('Email address').fill(email);
  await adaeze.getByLabel('Password').fill('a-new-password-1');
  await adaeze.getByRole('button', { name: 'Sign in' }).click();
  await expect(adaeze.getByText('These credentials do not match our records.')).toBeVisible();
  await theirs.close();
});

test('Previous and Next look disabled when they are', async ({ page }) => {
  await signIn(page, 'admin@example.org');
  await page.getByRole('link', { name: 'Training Schools' }).click();
  const pages = page.getByRole('navigation', { name: 'Pages' });
  const previous = pages.getByRole('button', { name: 'Previous' });
  await expect(previous).toBeDisabled();
  const search = page.getByRole('search').getByRole('button', { name: 'Search' });
  await expect(search).toBeEnabled();
  // The same kind of button, one enabled and one not: they must not look alike.
  const look = (button: typeof previous) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.color} ${style.backgroundColor}`;
    });
  expect(await look(previous)).not.toBe(await look(search));
});
