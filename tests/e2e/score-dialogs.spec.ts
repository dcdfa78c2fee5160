import { expect, test } from '@playwright/test';
import { signIn } from './support';

/**
 * The score pages' one-off actions as dialogs (issue 24), used as a board admin on a 390 px phone: from
 * the keyboard, nothing wider than the screen, success and refusal said in words.
 */

// Signed in at desk width (the sign-in helper reads the sidebar), then used on the phone.
const PHONE = { width: 390, height: 844 };

const overflow = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the result rules are edited in a dialog from the keyboard; a refusal stays beside its field', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org', '/score/papers?course_header=B1');
  await page.setViewportSize(PHONE);
  const edit = page.getByRole('button', { name: 'Edit the rules' });
  await expect(edit).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await edit.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Result rules of B1' });
  // The dialog element wraps its fixed panel (no box of its own): its fields are what shows.
  await expect(dialog.getByLabel('Pass mark (%)')).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);

  // A pass mark past 100 is refused in words, beside the field, and what was typed is kept.
  const passMark = dialog.getByLabel('Pass mark (%)');
  await passMark.fill('150');
  await passMark.press('Enter');
  await expect(passMark).toHaveAttribute('aria-invalid', 'true');
  await expect(passMark).toHaveValue('150');

  // The value as it was, saved from the keyboard: the dialog closes and says so.
  await passMark.fill('50');
  await passMark.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Result rules saved' })).toBeVisible();
  await expect(passMark).toBeHidden();
  await expect(page.getByText('50%', { exact: true })).toBeVisible();
});

test('the sheets page and its dialog fit a phone', async ({ page }) => {
  await signIn(page, 'admin@example.org', '/score');
  await page.setViewportSize(PHONE);
  await expect(page.getByRole('heading', { name: 'Score Entry' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a score sheet' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Add a score sheet' }).getByLabel('Marker one'),
  ).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
});
