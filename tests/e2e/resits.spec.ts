import { expect, test } from '@playwright/test';
import { indexCandidate, listSettled, uniqueLetters } from './indexing';
import { apiSignIn, signIn } from './support';

test("a school admin adds and removes a resit entry for their own candidate, and sees no other school's", async ({
  page,
  request,
}) => {
  const suffix = uniqueLetters();
  const admin = await apiSignIn(request, 'admin@example.org');
  const ownIndex = await indexCandidate(request, admin, {
    first_name: 'Tolani',
    last_name: `Resit${suffix}`,
    school_code: 'SHT-IB',
  });
  const otherIndex = await indexCandidate(request, admin, {
    first_name: 'Effiong',
    last_name: `Resit${suffix}`,
    school_code: 'CHT-CA',
  });
  // Another school's entry, added by the board for the current diet: school1 must not see it.
  const choices = await request.get('/api/admin/diet-choices', {
    headers: { Authorization: `Bearer ${admin}` },
  });
  const current = ((await choices.json()).data as { code: string; current: boolean }[]).find(
    (d) => d.current,
  )!;
  const other = await request.post('/api/admin/resit-candidates', {
    headers: { Authorization: `Bearer ${admin}` },
    data: { candidate_index: otherIndex, diet: current.code, papers: ['Oral'] },
  });
  expect(other.status()).toBe(200);

  await signIn(page, 'school1@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Resit Candidates' })
    .click();
  await expect(page.getByRole('heading', { name: 'Resit Candidates' })).toBeVisible();
  await expect(page.getByText('Loading…')).toBeHidden();
  await listSettled(page);
  await expect(page.getByText(otherIndex)).toHaveCount(0);

  await page.getByRole('button', { name: 'Add a resit candidate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a resit candidate' });
  // Another school's candidate is not one this school admin can name.
  await dialog.getByLabel('Candidate index number').fill(otherIndex);
  // The diet open for registration is chosen to begin with.
  await expect(dialog.getByLabel('Diet')).toHaveValue(current.code);
  await dialog.getByLabel('Oral').check();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByLabel('Candidate index number')).toHaveAccessibleDescription(
    /There is no indexed candidate with this index number/,
  );

  await dialog.getByLabel('Candidate index number').fill(ownIndex);
  await dialog.getByLabel('Oral').uncheck();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog.getByText('Choose at least one paper', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Diet')).toHaveValue(current.code);
  await dialog.getByLabel('Practical').check();
  await dialog.getByLabel('Paper I', { exact: true }).check();
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The resit entry is added.')).toBeVisible();
  // Said in a toast that screen readers announce (issue 9: creates said nothing).
  await expect(page.getByRole('alert').filter({ hasText: 'The resit entry is added.' })).toBeVisible();
  await listSettled(page);

  const row = page.getByRole('row').filter({ hasText: ownIndex });
  await expect(row).toContainText('Paper I, Practical');
  await expect(page.getByText(otherIndex)).toHaveCount(0);

  await row.getByRole('button', { name: `Remove from the list: Tolani Resit${suffix}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove from the list' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByText('The resit entry is removed from the list.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: ownIndex })).toHaveCount(0);
});
