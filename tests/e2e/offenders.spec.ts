import { expect, test } from '@playwright/test';
import { boardDay, indexCandidate, listSettled, uniqueLetters } from './indexing';
import { apiSignIn, signIn } from './support';

test('an admin records an offence; the candidate then cannot be registered, and can once it is removed', async ({
  page,
  request,
}) => {
  const lastName = `Offender${uniqueLetters()}`;
  const admin = await apiSignIn(request, 'admin@example.org');
  const candidateIndex = await indexCandidate(
    request,
    admin,
    {
      first_name: 'Bisola',
      last_name: lastName,
      school_code: 'SHT-IB',
    },
    { verified: true },
  );

  await signIn(page, 'admin@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exam Offenders' }).click();
  await expect(page.getByRole('heading', { name: 'Exam Offenders' })).toBeVisible();

  await page.getByRole('button', { name: 'Record an offence' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record an offence' });
  await dialog.getByLabel('Candidate index number').fill(candidateIndex);
  await dialog.getByRole('button', { name: 'Record' }).click();
  // Refused: each missing field says so, and what was typed stays.
  await expect(dialog.getByText('Describe the offence', { exact: true })).toBeVisible();
  await expect(
    dialog.getByText('Enter the date the sanction starts, or the number of diets it runs for', {
      exact: true,
    }),
  ).toBeVisible();
  await expect(dialog.getByLabel('Candidate index number')).toHaveValue(candidateIndex);

  const until = boardDay(365);
  // The diet of the offence: the current one unless another is chosen.
  await expect(dialog.getByLabel('Diet of the offence')).toHaveValue(/^[A-Z]{3}-\d{4}$/);
  await dialog.getByLabel('Offence', { exact: true }).fill('Exam malpractice');
  await dialog.getByLabel('Sanction', { exact: true }).fill('Barred from the next two exams');
  // Dates are typed as the board writes them, DD/MM/YYYY.
  const dmy = until.split('-').reverse().join('/');
  await dialog.getByLabel('Sanction from', { exact: true }).fill(boardDay(-1).split('-').reverse().join('/'));
  await dialog.getByLabel('Sanction until', { exact: true }).fill(dmy);
  await dialog.getByRole('button', { name: 'Record' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The offence is recorded.')).toBeVisible();
  // Said in a toast that screen readers announce (issue 9: creates said nothing).
  await expect(page.getByRole('alert').filter({ hasText: 'The offence is recorded.' })).toBeVisible();
  const offenceRow = page.getByRole('row').filter({ hasText: candidateIndex });
  await expect(offenceRow).toContainText('In force');

  // The Registered Candidates list refuses the registration, and says why.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(candidateIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  const row = page.getByRole('row').filter({ hasText: candidateIndex });
  await expect(row).toHaveCount(1);
  const status = row.getByLabel(`Registration status of Bisola ${lastName}`);
  await status.selectOption('registered');
  await expect(row.getByRole('alert')).toHaveText(
    `This candidate is under an exam sanction until ${dmy} (Exam malpractice), so cannot be registered`,
  );
  await expect(status).toHaveValue('unregistered');

  // Removed from the list (recorded in error), the offence no longer stops the registration.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exam Offenders' }).click();
  await page.getByLabel('Name or index number').fill(lastName);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  await expect(page.getByRole('row').filter({ hasText: candidateIndex })).toHaveCount(1);
  await page.getByRole('button', { name: `Remove from the list: Bisola ${lastName}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove from the list' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('The offence is removed from the list.')).toBeVisible();
  await expect(page.getByText('No offender matches.')).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(candidateIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  const again = page
    .getByRole('row')
    .filter({ hasText: candidateIndex })
    .getByLabel(`Registration status of Bisola ${lastName}`);
  await again.selectOption('registered');
  await expect(page.getByRole('row').filter({ hasText: candidateIndex }).getByText('Saving…')).toBeHidden();
  await expect(again).toHaveValue('registered');
});
