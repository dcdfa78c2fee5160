import { expect, test } from '@playwright/test';
import { signIn } from './support';

/**
 * Nothing moves as a page's data arrives (issue 28: Lighthouse measured a layout shift of 0.10-0.11 on a
 * school's Registered list, the registration window's notice pushing the search form down as it came).
 * The window's answer is held back half a second (the real answer, late, as on a slow link), and the
 * search form's place is read on every frame from its first paint until the notice is shown.
 */
test("a school's Registered list keeps its search form in place while the registration window loads", async ({
  page,
}) => {
  await signIn(page, 'school1@example.org');
  await page.route('**/api/training-school-admin/registration-window', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const tops = page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const seen: number[] = [];
        const started = performance.now();
        const frame = () => {
          const form = document.querySelector('main form[role="search"]');
          if (form) seen.push(Math.round(form.getBoundingClientRect().top));
          const shown = document.querySelector('[data-testid="registration-countdown"]');
          if ((shown && form) || performance.now() - started > 15_000) resolve(seen);
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await expect(page.getByTestId('registration-countdown')).toBeVisible();
  const seen = await tops;
  expect(seen.length).toBeGreaterThan(1);
  expect(new Set(seen)).toEqual(new Set([seen[0]]));
});
