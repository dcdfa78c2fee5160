import { expect, test } from '@playwright/test';
import { signIn } from './support';

/**
 * Issue 22: Edit Candidates saves a demo candidate without choosing the stored photo (or the A4 food
 * hygiene certificate) again; the stored file satisfies its rule, and the change is kept.
 */

for (const courseHeader of ['A1', 'A4'] as const) {
  test(`the board edits a demo ${courseHeader} candidate's middle name and saves, with the stored uploads kept`, async ({
    page,
  }) => {
    await signIn(page, 'admin@example.org');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Edit Candidates' })
      .click();
    await expect(page.getByRole('heading', { name: 'Edit Candidates' })).toBeVisible();
    await page.getByLabel('Course header').selectOption(courseHeader);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const row = page
      .getByRole('row')
      .filter({ hasText: `/${courseHeader}/` })
      .first();
    await row.getByRole('link', { name: 'Edit' }).click();

    const middleName = page.getByLabel('Middle name');
    await expect(middleName).toBeVisible();
    // The stored photo is shown, and the field is not marked required: replacing it is optional.
    await expect(page.getByRole('img', { name: 'Stored Candidate profile photo' })).toBeVisible();
    await expect(page.getByLabel('Candidate profile photo', { exact: true })).toBeVisible();
    if (courseHeader === 'A4')
      await expect(page.getByLabel('Food hygiene certificate', { exact: true })).toBeVisible();

    const changed = `Edited${courseHeader}`;
    await middleName.fill(changed);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Changes saved.' })).toBeVisible();
    await expect(page.getByText('Candidate profile photo is required')).toHaveCount(0);
    await expect(page.getByText('Waheb Food Hygiene Certificate is required')).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel('Middle name')).toHaveValue(changed);
    await expect(page.getByRole('img', { name: 'Stored Candidate profile photo' })).toBeVisible();
  });
}
