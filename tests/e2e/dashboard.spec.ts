import { expect, test } from '@playwright/test';
import { signIn } from './support';

/**
 * The Dashboard in Chromium on the living demo: each role lands on it and sees its numbers; a number
 * opens its list with the filter set; a chart is drawn, with its data as a table (visually hidden on
 * screen); at 390 px nothing is wider than the screen; the bars grow in, but not with reduced motion.
 */

test("the board's dashboard: numbers that open their lists, charts with their tables, at 390 px", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await signIn(page, 'admin@example.org');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const registered = page.getByRole('link', { name: /Registered for the diet/ });
  await expect(registered).toBeVisible();
  const count = Number((await registered.getByTestId('stat-value').textContent())!.replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);

  // The charts: drawn in SVG (the lazy chunk), each with its table for screen readers and print.
  await expect(page.getByTestId('chart-drawing').first().locator('svg')).toBeVisible();
  const table = page.getByRole('table', { name: 'Registrations per day, the last 30 days' });
  await expect(table).toHaveCount(1);
  expect(await table.getByRole('row').count()).toBe(31);
  await expect(page.getByRole('table', { name: /Pass rates by school/ })).toHaveCount(1);
  // Reduced motion: no bar carries an animation.
  const animations = () =>
    page
      .locator('.ct-bar')
      .evaluateAll((bars) => [...new Set(bars.map((bar) => getComputedStyle(bar).animationName))]);
  expect(await animations()).toEqual(['none']);
  // Otherwise the bars grow in from their axis, by CSS (no SVG <animate> a bar).
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect((await animations()).sort()).toEqual(['dashboard-bar-grow-x', 'dashboard-bar-grow-y']);
  expect(await page.locator('.ct-bar animate').count()).toBe(0);
  await page.emulateMedia({ reducedMotion: 'reduce' });

  // At 390 px the page is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('chart-drawing').first().locator('svg')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The number opens Registered Candidates with the diet and status set, and the list agrees.
  await registered.click();
  await expect(page).toHaveURL(/\/candidate\/candidate-registered\?diet=[A-Z0-9-]+&reg_status=registered$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Registered Candidates' })).toBeVisible();
  const listed = page.getByText(/^1–\d+ of [\d,]+$/).first();
  await expect(listed).toBeVisible();
  const total = Number(/of ([\d,]+)$/.exec((await listed.textContent())!)![1].replace(/,/g, ''));
  // The Dashboard's numbers are counted each minute (server/dashboard/summary.ts): a registration made
  // by an earlier test in the last minute reaches it at the next count, and then the two agree.
  if (count !== total) {
    await page.goto('/overview');
    await expect
      .poll(
        async () => {
          await page.reload();
          return Number((await registered.getByTestId('stat-value').textContent())!.replace(/,/g, ''));
        },
        { timeout: 100_000, intervals: [5_000] },
      )
      .toBe(total);
  }

  // The money and the marking open their lists filtered too: payments paid this week, sheets in a state.
  await page.goto('/overview');
  await page.getByRole('link', { name: /Paid this week/ }).click();
  await expect(page).toHaveURL(/\/payments\/histories\?paid=week$/);
  await expect(page.getByLabel('When paid')).toHaveValue('week');
  await page.goto('/overview');
  await page.getByRole('link', { name: /Score sheets: open/ }).click();
  await expect(page).toHaveURL(/\/score\?diet=[A-Z0-9-]+&show=open$/);
  await expect(page.getByLabel('Show')).toHaveValue('open');
});

test("a school admin's dashboard: their candidates by status, at 390 px", async ({ page }) => {
  await signIn(page, 'school1@example.org');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Registration fee unpaid/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Your candidates for the diet' })).toHaveCount(1);
  await expect(page.getByTestId('chart-drawing').first().locator('svg')).toBeVisible();
  // What the board asks of the school links to the school's own broadcasts and messages.
  await expect(page.getByRole('link', { name: /Broadcasts to acknowledge/ })).toHaveAttribute(
    'href',
    '/broadcasts',
  );
  await expect(page.getByRole('link', { name: /New answers from the board/ })).toHaveAttribute(
    'href',
    '/messages',
  );
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole('link', { name: /Verified, not registered/ }).click();
  await expect(page).toHaveURL(/reg_status=unregistered&verified=true$/);
});
