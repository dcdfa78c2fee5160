import { expect, test, type Page } from '@playwright/test';
import { SANDBOX_NOTICE } from '../../contract/payments';
import { signIn } from './support';

/**
 * The sandbox says what it is, and its checkout fits (issue 22): with no Paystack keys the checkout and
 * every receipt say payments are simulated and no money moves; the checkout's buttons are all in view and
 * clickable on a 390 px phone and at desk width, without the page or the checkout overflowing.
 */

const checkout = (page: Page) => page.frameLocator('iframe[title="Sandbox checkout"]');
const CHOICES = ['Pay', 'Decline', 'Leave pending', 'Abandon'];

/** Opens the sandbox checkout for one free unpaid candidate of the Registration fee. */
async function openCheckout(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await page.getByRole('button', { name: 'Pay Registration fee' }).click();
  const box = page
    .getByRole('group', { name: /Your unpaid candidates/ })
    .getByRole('checkbox', { disabled: false })
    .first();
  await box.check();
  await page.getByRole('button', { name: 'Pay for the ticked candidates' }).click();
  await page.getByRole('button', { name: 'Pay ₦15,000.00' }).click();
  await expect(checkout(page).getByText(SANDBOX_NOTICE)).toBeVisible();
}

async function noOverflow(page: Page) {
  const page_ = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(page_).toBeLessThanOrEqual(0);
  const frame = page.frame({ url: /\/sandbox\/paystack\/checkout\// })!;
  const inside = await frame.evaluate(() => ({
    wide: document.documentElement.scrollWidth - window.innerWidth,
    tall: document.documentElement.scrollHeight - window.innerHeight,
  }));
  expect(inside.wide).toBeLessThanOrEqual(0);
  expect(inside.tall).toBeLessThanOrEqual(0);
}

for (const [label, viewport] of [
  ['a 390 px phone', { width: 390, height: 844 }],
  ['desk width', { width: 1280, height: 720 }],
] as const) {
  test(`the sandbox checkout's buttons are all in view on ${label}`, async ({ page }) => {
    await signIn(page, 'school1@example.org');
    await openCheckout(page);
    await page.setViewportSize(viewport);
    await expect(page.locator('iframe[title="Sandbox checkout"]')).toBeInViewport({ ratio: 1 });
    for (const name of CHOICES) {
      const button = checkout(page).getByRole('button', { name, exact: true });
      await expect(button).toBeVisible();
      await expect(button).toBeEnabled();
      await expect(button).toBeInViewport({ ratio: 1 });
    }
    await expect(page.getByRole('button', { name: 'Close checkout' })).toBeInViewport({ ratio: 1 });
    await noOverflow(page);
    // Clickable: the payer leaves it, and the payment says so and holds nobody.
    await checkout(page).getByRole('button', { name: 'Abandon' }).click();
    await expect(
      page
        .getByTestId('payment-outcome')
        .getByRole('heading', { name: 'The payment was not completed. Nothing was charged.' }),
    ).toBeVisible();
  });
}

test('a sandbox payment’s receipt says it was simulated and no money moved', async ({ page }) => {
  await signIn(page, 'school1@example.org');
  await openCheckout(page);
  await checkout(page).getByRole('button', { name: 'Pay', exact: true }).click();
  const outcome = page.getByTestId('payment-outcome');
  await expect(outcome.getByRole('heading', { name: 'Payment received.' })).toBeVisible();
  await outcome.getByRole('link', { name: 'View and print the receipt' }).click();
  const receipt = page.getByRole('article', { name: /^Receipt RCT\// });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByTestId('receipt-notice')).toHaveText(SANDBOX_NOTICE);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(receipt.getByTestId('receipt-notice')).toBeInViewport();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
});
