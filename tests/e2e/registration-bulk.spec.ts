import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support';

/**
 * Issue 22: Registered Candidates shows whether the board has verified each candidate's documents, and a
 * school registers many candidates at once (ticked rows, or every verified candidate) and reads the
 * count; on a phone the wide table says it scrolls and keeps the row's action in view.
 */

async function openRegistered(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await expect(page.getByRole('heading', { name: 'Registered Candidates', level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

test('school1 sees each row verified or not, ticks rows and registers them, then every verified one', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'school1@example.org');
  await openRegistered(page);
  // Only the candidates not registered yet, verified first in mind.
  await page.getByRole('combobox', { name: 'Registration', exact: true }).selectOption('unregistered');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);

  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Documents' })).toBeVisible();
  const verifiedRows = table.getByRole('row').filter({ has: page.getByText('Verified', { exact: true }) });
  const unverifiedRows = table
    .getByRole('row')
    .filter({ has: page.getByText('Not verified yet', { exact: true }) });
  await expect(verifiedRows.first()).toBeVisible();
  await expect(unverifiedRows.first()).toBeVisible();

  // One verified and one not verified row ticked: one registered, one refused with the reason.
  const verified = verifiedRows.filter({ has: page.getByRole('checkbox', { disabled: false }) }).first();
  const unverified = unverifiedRows.filter({ has: page.getByRole('checkbox', { disabled: false }) }).first();
  const verifiedIndex = (await verified.getByRole('cell').nth(1).textContent())!;
  await verified.getByRole('checkbox').check();
  await unverified.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Register ticked (2)' }).click();
  const summary = page
    .getByRole('status')
    .filter({ hasText: /registered/ })
    .first();
  await expect(summary).toHaveText('1 registered; 1 refused: 1 not verified by the board');
  await expect(page.getByRole('button', { name: 'Register ticked (0)' })).toBeDisabled();

  // The registered one is registered in the list (it refreshed), and stays so after a reload.
  await page.getByRole('combobox', { name: 'Registration', exact: true }).selectOption('');
  await page.getByLabel('Name or index number').fill(verifiedIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row').filter({ hasText: verifiedIndex });
  await expect(row.getByRole('combobox')).toHaveValue('registered');

  // Every verified candidate: asked first, then counted.
  await page.getByLabel('Name or index number').fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('button', { name: 'Register every verified candidate' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('whose documents the board has verified');
  await dialog.getByRole('button', { name: 'Register them' }).click();
  await expect(summary).toHaveText(/^\d+ registered(, \d+ already registered)?(; \d+ refused: .+)?$/);
  // Pressed again, nobody is registered twice.
  await page.getByRole('button', { name: 'Register every verified candidate' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Register them' }).click();
  await expect(summary).toHaveText(/^0 registered(; \d+ refused: .+)?$/);
});

test('on a 390 px phone the wide list says it scrolls and keeps the row action in view', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'school1@example.org');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/candidate/candidate-registered');
  await expect(page.getByRole('heading', { name: 'Registered Candidates', level: 1 })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(page.getByTestId('table-scroll-hint')).toHaveText(
    'More columns to the right: scroll the table sideways.',
  );
  // The row's action (the registration select, the last column) is on screen without scrolling sideways
  // (the page is scrolled down to the table only).
  await page.evaluate(() =>
    window.scrollBy(0, document.querySelector('table')!.getBoundingClientRect().top - 80),
  );
  const frame = page.getByRole('region', { name: 'Table (scrolls sideways)' });
  expect(await frame.evaluate((el) => el.scrollLeft)).toBe(0);
  const action = page.getByRole('table').getByRole('combobox').first();
  await expect(action).toBeInViewport();
  const box = (await action.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  // The frame scrolls by keyboard too; at the end the hint says the first columns are to the left.
  await frame.focus();
  await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(page.getByTestId('table-scroll-hint')).toHaveText(
    'Scroll the table sideways for the first columns.',
  );
  const after = (await action.boundingBox())!;
  expect(after.x).toBeGreaterThanOrEqual(0);
  expect(after.x + after.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
