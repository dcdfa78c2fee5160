import { expect, test, type Response } from '@playwright/test';
import { DEMO_PASSWORD, readMailedCode } from './support';

/**
 * How the real build reaches a browser (issue 8): every file /login needs comes brotli-compressed as
 * the build wrote it, and the signed-in shell is fetched while the user reads their mail for the code,
 * so it is there when the code is accepted.
 */

test('/login arrives brotli-compressed: the page and its scripts (its styles are in the page)', async ({
  page,
}) => {
  const responses: Response[] = [];
  page.on('response', (response) => responses.push(response));
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  const needed = responses.filter((response) =>
    ['document', 'script', 'stylesheet'].includes(response.request().resourceType()),
  );
  // Since issue 28 /login's HTML is rendered at build time with the rules it uses inline: the whole
  // stylesheet comes after sign-in, so a stylesheet fetched here must come compressed too, but none need.
  expect(needed.map((response) => response.request().resourceType())).toEqual(
    expect.arrayContaining(['document', 'script']),
  );
  for (const response of needed) {
    expect(await response.headerValue('content-encoding'), response.url()).toBe('br');
    expect(await response.headerValue('vary'), response.url()).toMatch(/accept-encoding/i);
  }
});

test('the shell is fetched once the password is sent, before the code is typed', async ({ page }) => {
  const shellFetched = page.waitForResponse((response) => /\/assets\/Shell-[\w-]+\.js$/.test(response.url()));
  await page.goto('/login');
  const since = Date.now() - 1000;
  await page.getByLabel('Email address').fill('school1@example.org');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/auth-confirm-code/);
  // Still on the code page, nothing typed: the shell's chunk has already come.
  expect((await shellFetched).status()).toBe(200);
  await expect(page.getByLabel('Confirmation code')).toHaveValue('');

  await page.getByLabel('Confirmation code').fill(await readMailedCode('school1@example.org', since));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});
