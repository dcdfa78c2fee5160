import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support';

/**
 * The audit trail in Chromium on the living demo (issue 27): a board admin reaches it from the
 * Dashboard with the keyboard, filters it by an impersonator, and sees that admin's actions as SHT-IB's
 * school admin with a readable difference (the phone number was, and is now); the filter stays in the
 * address bar; the page is no wider than a 390 px phone; a candidate's record shows its History.
 */

const ADMIN = 'admin@example.org';

async function tabTo(page: Page, name: string | RegExp) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    const text = (await focused.getAttribute('aria-label')) ?? (await focused.textContent()) ?? '';
    if (typeof name === 'string' ? text.trim() === name : name.test(text)) return focused;
  }
  throw new Error(`Tab never reached ${name}`);
}

test('an admin filters the audit trail by an impersonator and sees their actions as the school admin', async ({
  page,
}) => {
  await signIn(page, ADMIN);
  await expect(page).toHaveURL(/\/overview$/);

  // From the Dashboard, by the keyboard: the sidebar's entries are the spec's, and this is not one.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Audit trail' })).toHaveCount(0);
  await tabTo(page, 'Audit trail');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/audit-trail$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();

  // The impersonator's filter, typed and sent with the keyboard alone.
  const impersonator = page.getByLabel("Impersonated by (board admin's email)");
  await impersonator.focus();
  await page.keyboard.type(ADMIN);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/impersonator=admin%40example\.org/);

  const entries = page.getByRole('article');
  const profile = entries.filter({ hasText: 'User: profile updated' });
  await expect(profile).toHaveCount(1);
  // Who, as whom: the admin acting as the school admin.
  await expect(profile).toContainText(
    'Adaeze Okafor (admin@example.org, Board admin), acting as Babatunde Adeyemi',
  );
  await expect(profile).toContainText('(SHT-IB)');
  // The difference, readable: the field, what it was and what it is now.
  await expect(profile.getByRole('term')).toHaveText(['Phone number']);
  await expect(profile.getByRole('definition')).toHaveText('was +234 803 000 0200, now +234 803 000 0002');
  // Every entry shown is one made behind an impersonation by that admin.
  const count = await entries.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await expect(entries.nth(i)).toContainText('Adaeze Okafor');

  // A reload keeps the filter and the entries (the address bar holds the query).
  await page.reload();
  await expect(page.getByLabel("Impersonated by (board admin's email)")).toHaveValue(ADMIN);
  await expect(entries.filter({ hasText: 'User: profile updated' })).toHaveCount(1);

  // A bad date is refused in words, not with a broken page.
  await page.getByLabel('From', { exact: true }).fill('31/02/2027');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Enter a real date (DD/MM/YYYY)').first()).toBeVisible();
  await page.getByLabel('From', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(entries.filter({ hasText: 'User: profile updated' })).toHaveCount(1);

  // On a phone the page is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(entries.filter({ hasText: 'User: profile updated' })).toHaveCount(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The chain's head is shown to print, and the log is verified in words, from the keyboard.
  const verify = page.getByRole('button', { name: 'Verify the log' });
  await verify.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^The log is whole: [\d,]+ entr/)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test("a candidate's record shows its history from the audit trail", async ({ page }) => {
  await signIn(page, ADMIN);
  // The demo's candidates have their indexing in the log; the newest entry's candidate.
  await page.goto('/audit-trail?action=candidate.indexed');
  const first = page.getByRole('article').first();
  await expect(first).toContainText(/Candidate \d+/);
  const id = /Candidate (\d+)/.exec((await first.textContent()) ?? '')![1];
  await page.goto(`/candidate/record/${id}`);
  const history = page.getByRole('region', { name: 'History' });
  const indexed = history.getByRole('article').filter({ hasText: 'Candidate: indexed' });
  await expect(indexed).toHaveCount(1);
  await expect(indexed.getByRole('term').filter({ hasText: 'Candidate index' })).toHaveCount(1);
  await history.getByRole('link', { name: 'Open in the audit trail' }).click();
  await expect(page).toHaveURL(new RegExp(`/audit-trail\\?entity=candidate&entity_id=${id}$`));
  await expect(page.getByLabel('Record number')).toHaveValue(id);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
});
