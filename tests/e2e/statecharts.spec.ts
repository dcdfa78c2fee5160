import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { statechartAnchor, statechartHref } from '../../contract/statecharts';
import { signIn } from './support';

/** Every charted machine: the files `npm run charts` writes (drift-tested against MACHINES). */
const MACHINE_NAMES = readdirSync(join(import.meta.dirname, '..', '..', 'docs', 'statecharts'))
  .filter((file) => file.endsWith('.mmd'))
  .map((file) => file.slice(0, -'.mmd'.length));

const IDLE_TIMEOUT = 'active --after idleTimeout--> idle';

test('/statecharts draws every machine, without signing in, and shows a covered transition', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/statecharts');
  await expect(page.getByRole('heading', { name: 'Statecharts', level: 1 })).toBeVisible();
  expect(MACHINE_NAMES.length).toBeGreaterThan(10);
  for (const name of MACHINE_NAMES) {
    const section = page.locator(`section[id="${name}"]`);
    await expect(section.getByRole('heading', { name, level: 2 })).toBeVisible();
    const diagram = section.getByRole('region', { name: `Diagram of ${name}` });
    await expect(diagram.locator('svg [data-state]').first()).toBeAttached();
    await expect(diagram.locator('svg path').first()).toBeAttached();
  }
  // Signed out, no live state.
  await expect(page.getByRole('heading', { name: 'Your portal, live' })).toHaveCount(0);

  // The idle timer's transition: listed in words, covered by the path tests, reached from its arrow.
  const anchor = statechartAnchor('idle', IDLE_TIMEOUT);
  const row = page.locator(`li[id="${anchor}"]`);
  await expect(row).toContainText('after idleTimeout');
  await expect(row.getByText('covered', { exact: true })).toBeVisible();
  const arrow = page
    .getByRole('region', { name: 'Diagram of idle' })
    .getByRole('link', { name: new RegExp(`: ${IDLE_TIMEOUT}$`) });
  await expect(arrow.locator('xpath=..')).toHaveAttribute('data-covered', 'true');
  await expect(page.locator('section[id="idle"] [data-state="idle"]')).toHaveAttribute(
    'data-covered',
    'true',
  );
  await arrow.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#${anchor}$`));
  await expect(row).toBeInViewport();

  await expect(row).toHaveAttribute('aria-current', 'location');

  // A link from the audit trail opens the page at its transition.
  const locked = statechartHref('scoreSheet', 'locking --done: lockSheet--> loading');
  await page.goto(locked);
  const lockedRow = page.locator(`li[id="${locked.split('#')[1]}"]`);
  await expect(lockedRow).toBeInViewport();
  await expect(lockedRow).toHaveAttribute('aria-current', 'location');
  await expect(lockedRow.getByText('covered', { exact: true })).toBeVisible();

  // No wider than a phone: the diagrams scroll inside their own region.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
});

test('a signed-in user sees the live state change when the idle timer fires, and copies it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.clock.install();
  await signIn(page, 'admin@example.org');
  await page.goto('/statecharts');
  const live = page.getByRole('region', { name: 'Your portal, live' });
  await expect(live.locator('li[data-actor="session"]')).toContainText('signedIn');
  const idle = live.locator('li[data-actor="idle"]');
  await expect(idle).toContainText('active');
  await expect(page.locator('section[id="idle"] [data-state="active"]')).toHaveAttribute(
    'data-active',
    'true',
  );

  // Ten seconds without a click or a scroll.
  await page.clock.fastForward(10_000);
  await expect(idle).toHaveText('idle: idle');
  await expect(live.locator('li[data-actor="app"]')).toContainText('activity: idle');
  await expect(page.locator('section[id="idle"] [data-state="idle"]')).toHaveAttribute('data-active', 'true');

  // The click is activity: the flag clears at once, and what is copied is the state after it.
  await live.getByRole('button', { name: 'Copy' }).click();
  await expect(live.getByRole('status')).toHaveText(/Copied/);
  await expect(idle).toHaveText('idle: active');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('idle (idle): active');
  expect(copied).toContain('app (app): account: admin; activity: active');
  expect(copied).toContain('session (session): signedIn');
  // State values only: no token, no address.
  expect(copied).not.toMatch(/admin@example\.org|token|eyJ/i);
});

test('a school admin with a payment open copies its live state from the foot of the page, by keyboard', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'school1@example.org');
  await page.setViewportSize({ width: 390, height: 800 });
  // To the Payments page and into a payment, by keyboard (at 390 px the sidebar is behind the menu button).
  await page.getByRole('button', { name: 'Open the menu' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).focus();
  await page.keyboard.press('Enter');
  const pay = page.getByRole('button', { name: 'Pay Registration fee' });
  await pay.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: /Your unpaid candidates/ })).toBeVisible();

  await page.getByRole('button', { name: 'Live state (for support)' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Live state (for support)' });
  const payment = dialog.locator('li[data-actor="payment"]');
  await expect(payment).toHaveText('payment: choosing');
  await expect(dialog.locator('li[data-actor="session"]')).toContainText('signedIn');
  await expect(payment.getByRole('link', { name: 'payment' })).toHaveAttribute(
    'href',
    statechartHref('payment'),
  );
  // Focus stays in the dialog: Tab walks its links and buttons only, and reaches Copy.
  const copy = dialog.getByRole('button', { name: 'Copy' });
  for (let i = 0; i < 20 && !(await copy.evaluate((el) => el === document.activeElement)); i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText(/Copied/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('payment (payment): choosing [active]');
  expect(copied).toContain('session (session): signedIn');
  // State values only: no token, no address.
  expect(copied).not.toMatch(/school1@example\.org|@|token|eyJ/i);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Escape closes it; the payment is still open behind it.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('group', { name: /Your unpaid candidates/ })).toBeVisible();

  // Leaving the payment's page stops its actor: it leaves the live list.
  await page.getByRole('button', { name: 'Open the menu' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Print Documents' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Live state (for support)' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.locator('li[data-actor="session"]')).toBeVisible();
  await expect(dialog.locator('li[data-actor="payment"]')).toHaveCount(0);

  // Each actor leads to its machine's chart; the dialog closes on the way.
  await dialog.getByRole('link', { name: 'idle', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/statecharts#idle$/);
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('section[id="idle"]')).toBeInViewport();
});
