import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { toBoardMoment } from '../../contract/diets';
import { indexCandidate, listSettled, uniqueLetters } from './indexing';
import { apiSignIn, signIn } from './support';

/**
 * Diets and the registration window, end to end: the board opens a diet, a school registers a verified
 * candidate, the window closes and registration is refused, and an extension lets that school (and only
 * that school) register again. The server's clock decides; the board moves the window to close it.
 */

const HOUR = 3600_000;
const dmy = (date: Date) => toBoardMoment(date).slice(0, 10).split('-').reverse().join('/');

let original: { id: number } | null = null;
let adminToken = '';

/** The demo's current diet is made current again, whatever happened: the other specs register on it. */
test.afterAll(async ({ request }) => {
  if (original) {
    await request.post(`/api/admin/diets/${original.id}/current`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
  }
});

async function registerFromList(page: Page, index: string, name: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(index);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  const row = page.getByRole('row').filter({ hasText: index });
  await expect(row).toHaveCount(1);
  const status = row.getByLabel(`Registration status of ${name}`);
  await status.selectOption('registered');
  return { row, status };
}

async function registerByApi(request: APIRequestContext, token: string, index: string) {
  const search = await request.get(
    `/api/training-school-admin/registered-candidates?search=${encodeURIComponent(index)}`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  const [row] = (await search.json()).data.items as { id: number }[];
  return request.post(`/api/training-school-admin/candidates/${row.id}/reg-status`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { reg_status: 'registered' },
  });
}

test('a diet opens, a school registers; the window closes and refuses; an extension lets that school alone register', async ({
  page,
  browser,
  request,
}) => {
  const suffix = uniqueLetters();
  const code = `E2E-${suffix.toUpperCase()}`.slice(0, 20);
  adminToken = await apiSignIn(request, 'admin@example.org');
  const choices = await request.get('/api/admin/diet-choices', {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  const demo = ((await choices.json()).data as { code: string; current: boolean }[]).find((d) => d.current)!;
  const list = await request.get(`/api/admin/diets?search=${demo.code}`, {
    headers: { Authorization: `Bearer ${adminToken}` },
  });
  original = (await list.json()).data.items[0];

  const first = await indexCandidate(
    request,
    adminToken,
    { first_name: 'Adunni', last_name: `Window${suffix}`, school_code: 'SHT-IB' },
    { verified: true },
  );
  const second = await indexCandidate(
    request,
    adminToken,
    { first_name: 'Bolaji', last_name: `Window${suffix}`, school_code: 'SHT-IB' },
    { verified: true },
  );
  const calabar = await indexCandidate(
    request,
    adminToken,
    { first_name: 'Ekaette', last_name: `Window${suffix}`, school_code: 'CHT-CA' },
    { verified: true },
  );

  // The board opens a diet from the Course Headers page's Exam diets tab, and makes it current.
  await signIn(page, 'admin@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Course Headers' }).click();
  await page
    .getByRole('navigation', { name: 'Courses and diets' })
    .getByRole('link', { name: 'Exam diets' })
    .click();
  await expect(page.getByRole('heading', { name: 'Exam Diets' })).toBeVisible();
  await page.getByRole('button', { name: 'New diet' }).click();
  const dialog = page.getByRole('dialog', { name: 'New diet' });
  const now = Date.now();
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('Name').fill(`Diet ${code}`);
  await dialog.getByLabel('First paper', { exact: true }).fill(dmy(new Date(now + 30 * 24 * HOUR)));
  await dialog.getByLabel('Last paper', { exact: true }).fill(dmy(new Date(now + 40 * 24 * HOUR)));
  await dialog.getByLabel('Registration opens (Lagos time)').fill(toBoardMoment(new Date(now - 2 * HOUR)));
  // Closing before it opens is refused, with the form kept.
  await dialog.getByLabel('Registration closes (Lagos time)').fill(toBoardMoment(new Date(now - 3 * HOUR)));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Registration must close after it opens')).toBeVisible();
  await expect(dialog.getByLabel('Code')).toHaveValue(code);
  await dialog.getByLabel('Registration closes (Lagos time)').fill(toBoardMoment(new Date(now + 2 * HOUR)));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const dietRow = page.getByTestId(`diet-${code}`);
  await expect(dietRow).toContainText('Not current');
  await dietRow.getByRole('button', { name: `Make ${code} current` }).click();
  await page
    .getByRole('alertdialog', { name: `Make ${code} current?` })
    .getByRole('button', { name: 'Make current' })
    .click();
  await expect(page.getByText('This diet is now current for registration.')).toBeVisible();
  await expect(dietRow).toContainText('Current');

  // The school admin sees the countdown and registers a verified candidate.
  const schoolContext = await browser.newContext();
  const school = await schoolContext.newPage();
  await signIn(school, 'school1@example.org');
  await expect(school.getByTestId('registration-countdown')).toHaveText(
    /^Registration closes in 1 hour 5\d minutes$/,
  );
  const { row, status } = await registerFromList(school, first, `Adunni Window${suffix}`);
  await expect(row.getByText('Saving…')).toBeHidden();
  await expect(status).toHaveValue('registered');

  // The board moves the close to a minute ago: the window is closed, and the server refuses.
  await dietRow.getByRole('button', { name: `Edit ${code}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit diet ${code}` });
  const closedAt = new Date(Date.now() - 60_000);
  await edit.getByLabel('Registration closes (Lagos time)').fill(toBoardMoment(closedAt));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  const refused = await registerFromList(school, second, `Bolaji Window${suffix}`);
  await expect(refused.row.getByRole('alert')).toHaveText(
    /^Registration for Diet .+ closed at \d\d\/\d\d\/\d{4} \d\d:\d\d \(Lagos time\)$/,
  );
  await expect(refused.status).toHaveValue('unregistered');

  // An extension for SHT-IB: its admin registers; CHT-CA's still cannot.
  await dietRow.getByRole('button', { name: `Extensions for ${code}` }).click();
  const extensions = page.getByRole('dialog', { name: `Extensions for ${code}` });
  await expect(extensions.getByText('No school has an extension.')).toBeVisible();
  await extensions.getByLabel('Training school').selectOption('SHT-IB');
  await extensions.getByLabel('Until (Lagos time)').fill(toBoardMoment(new Date(Date.now() + HOUR)));
  await extensions.getByLabel('Reason').fill('Power cut at the school all week');
  await extensions.getByRole('button', { name: 'Grant extension' }).click();
  await expect(extensions).toBeHidden();
  await expect(page.getByText('The extension is granted.')).toBeVisible();

  await school.reload();
  const again = await registerFromList(school, second, `Bolaji Window${suffix}`);
  await expect(again.row.getByText('Saving…')).toBeHidden();
  await expect(again.status).toHaveValue('registered');
  await school.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(school.getByTestId('registration-countdown')).toHaveText(
    /^Registration closes in (5\d minutes|1 hour)$/,
  );
  await expect(school.getByText('Power cut at the school all week')).toBeVisible();
  await schoolContext.close();

  const calabarToken = await apiSignIn(request, 'school2@example.org');
  const other = await registerByApi(request, calabarToken, calabar);
  expect(other.status()).toBe(403);
  expect((await other.json()).message).toMatch(/closed at/);
});
