import { expect, test } from '@playwright/test';
import { INTEGRITY_MESSAGES } from '../../contract/integrity';
import { signIn } from './support';

/**
 * The integrity reports (issue 27): the admin opens Possible duplicates from Indexed Candidates, examines
 * the demo's likely duplicate (both records side by side, each a link to its record) and its re-indexed
 * offender, and marks the duplicate 'not the same person' with the keyboard alone; at 390 px the page is
 * no wider than the screen.
 */

test("the board examines the demo's likely duplicate and marks it not the same person, by keyboard, at 390 px", async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/candidate/candidate-indexed');
  await page.getByRole('link', { name: 'Possible duplicates' }).click();
  await expect(page.getByRole('heading', { name: 'Possible duplicates' })).toBeVisible();

  const pairs = page.getByRole('list', { name: 'Possible duplicates' }).getByRole('listitem');
  await expect(pairs).toHaveCount(2);
  const offender = pairs.filter({ hasText: 'Exam offender' });
  await expect(offender).toContainText('The same photo');
  const duplicate = pairs.filter({ hasText: 'and the same name and date of birth' });
  await expect(duplicate).toContainText('The same photo');
  // Both records side by side: two photos, two schools, two index numbers.
  await expect(duplicate.getByRole('img')).toHaveCount(2);
  await expect(duplicate.getByText(/^WHB\//)).toHaveCount(2);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // Each side opens its record.
  const firstName = await duplicate.getByRole('link').first().innerText();
  await duplicate.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/candidate\/record\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: firstName })).toBeVisible();
  await page.goBack();
  await expect(pairs).toHaveCount(2);

  // With the keyboard: focus the pair's button, open the question, answer it.
  const button = duplicate.getByRole('button', { name: /^Not the same person/ });
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Not the same person' });
  await expect(dialog.getByRole('heading', { name: 'Not the same person' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Not the same person' }).focus();
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: INTEGRITY_MESSAGES.notSame }),
  ).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Not the same person' })).toBeHidden();
  await expect(pairs).toHaveCount(1);
  await expect(pairs.first()).toContainText('Exam offender');
});
