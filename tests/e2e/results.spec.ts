import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiSignIn, signIn } from './support';

/**
 * Results in Chromium (issue 22): publishing what is not complete is refused in a sentence naming what
 * is missing; a withdrawal asks its reason and says what the schools lose; publishing asks first, saying
 * how many candidates and schools and what changes; a school chooses the diet of its results from a list.
 */

interface Choice {
  code: string;
  current: boolean;
}

async function dietChoices(request: APIRequestContext, email: string, prefix: string) {
  const token = await apiSignIn(request, email);
  const answer = await request.get(`${prefix}/diet-choices`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(200);
  const choices = (await answer.json()).data as Choice[];
  // The demo's past diet (MON-YYYY), not one another spec added (diets.spec.ts adds E2E-… diets).
  const past = choices.find((d) => !d.current && /^[A-Z]{3}-\d{4}$/.test(d.code))!;
  return { past: past.code, current: choices.find((d) => d.current)!.code };
}

test("the board's publish refuses an incomplete course header in words, and asks before the rest", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const diets = await dietChoices(request, 'admin@example.org', '/api/admin');
  await signIn(page, 'admin@example.org');
  await page.goto('/score/results');
  await expect(page.getByRole('heading', { name: 'Results', level: 1 })).toBeVisible();

  // The current diet: A1's Paper I is being marked, its Paper II has no sheet, no in-course scores.
  await page.getByTestId('publication-A1').getByRole('button', { name: 'Publish A1' }).click();
  const refusal = page.getByRole('alertdialog', { name: 'A1 cannot be published yet' });
  await expect(refusal).toContainText(/A1 cannot be published yet: Paper I is not locked for \d+ candidates/);
  await expect(refusal).toContainText(/Paper II has no sheet for \d+ candidates/);
  await expect(refusal).toContainText(/in-course scores are missing for \d+ candidates\./);
  await refusal.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('publication-A1')).toContainText('Not published');

  // The past diet, published: the picker filters the publications and the results list alike.
  await page.getByLabel('Diet', { exact: true }).selectOption(diets.past);
  const b1 = page.getByTestId('publication-B1');
  await expect(b1).not.toContainText('Not published');
  await expect(page.getByRole('row').filter({ hasText: diets.current })).toHaveCount(0);
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `${diets.past} A1` })
      .first(),
  ).toBeVisible();

  // Withdrawing asks for its reason and says what the schools lose.
  await b1.getByRole('button', { name: 'Withdraw B1' }).click();
  const withdraw = page.getByRole('dialog', { name: 'Withdraw the results of B1?' });
  await expect(withdraw).toContainText(
    /The results of \d+ candidates will no longer be shown to \d+ schools\./,
  );
  await withdraw.getByRole('button', { name: 'Withdraw' }).click();
  await expect(withdraw).toContainText('Say why the results are withdrawn.');
  await withdraw.getByLabel('Why they are withdrawn').fill('A grade band was set wrong');
  await withdraw.getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Results withdrawn' })).toBeVisible();
  await expect(b1).toContainText('A grade band was set wrong');

  // Publishing again asks first: how many candidates, how many schools, and what changes.
  await b1.getByRole('button', { name: 'Publish B1' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Publish the results of B1?' });
  await expect(ask).toContainText(/Results of \d+ candidates will be shown to \d+ schools\./);
  await expect(ask).toContainText(/against the last publication/i);
  await ask.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Results published' })).toBeVisible();
  await expect(b1).toContainText('shown to the schools');
});

test("a school chooses the diet of its results from the diets' list", async ({ page, request }) => {
  const diets = await dietChoices(request, 'school1@example.org', '/api/training-school-admin');
  await signIn(page, 'school1@example.org');
  await page.goto('/candidate/candidate-registered/results');
  const diet = page.getByLabel('Diet', { exact: true });
  await expect(diet.locator('option')).toContainText(['Every diet']);
  await diet.selectOption(diets.past);
  await page.getByRole('search', { name: 'Find results' }).getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`diet=${diets.past}`));
  const rows = page.getByRole('row').filter({ hasText: diets.past });
  await expect(rows.first()).toBeVisible();
  // The current diet's results are not published yet: none.
  await diet.selectOption(diets.current);
  await page.getByRole('search', { name: 'Find results' }).getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No result matches.')).toBeVisible();
});
