import { expect, test } from '@playwright/test';

/**
 * /login's HTML is rendered at build time with its rules and the early-submit script inline
 * (scripts/prerenderLogin.ts). The portal's CSP allows no inline code but those blocks, by their hashes
 * (server/http/inlineHashes.ts): without them the form painted unstyled, then shifted, and a submit
 * before hydration went out as a GET with the password in the address.
 */
test('/login as built: its inline styles and script run under the CSP, nothing is refused', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      refused.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { refused: string[] }).refused ??= [];
      (window as unknown as { refused: string[] }).refused.push(event.violatedDirective);
    });
  });
  // The HTML alone, as a slow link shows it before any script file has arrived.
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Sign in' });
  await expect(button).toBeVisible();
  // The inline rules styled it (an unstyled button has no background colour).
  expect(await button.evaluate((node) => getComputedStyle(node).backgroundColor)).not.toBe(
    'rgba(0, 0, 0, 0)',
  );
  // The inline script is there to hold a submit made now: the page stays, no GET with the password.
  await page.getByLabel('Email address').fill('admin@example.org');
  await page.getByLabel('Password').fill('not-in-the-address');
  await button.click();
  expect(page.url()).not.toContain('not-in-the-address');
  expect(await page.evaluate(() => (window as unknown as { refused?: string[] }).refused ?? [])).toEqual([]);
  expect(refused).toEqual([]);
});
