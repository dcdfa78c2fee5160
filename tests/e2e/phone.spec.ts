import { expect, test } from '@playwright/test';
import { SUB_PAGES, sidebarFor } from '../../contract/navigation';
import { signIn } from './support';

/** No page is wider than a 390 px phone: wide tables scroll inside their own frame. */

for (const [email, role] of [
  ['admin@example.org', 'admin'],
  ['school1@example.org', 'school_admin'],
] as const) {
  test(`every page of the ${role.replace('_', ' ')}'s sidebar, and the pages under it, fits a 390 px screen`, async ({
    page,
  }) => {
    // Signed in on a wide screen (the helper waits for the sidebar, which a phone folds away).
    await signIn(page, email);
    await page.setViewportSize({ width: 390, height: 844 });
    const subPages = SUB_PAGES.filter((entry) => (entry.roles as readonly string[]).includes(role));
    for (const entry of [...sidebarFor(role), ...subPages]) {
      await page.goto(entry.path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, entry.path).toBeLessThanOrEqual(390);
    }
  });
}
