import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support';

/**
 * Payments in Chromium against the sandbox provider the portal serves: a school admin pays for three
 * candidates through the sandbox popup and prints the receipt; a declined and an abandoned payment each
 * say so and credit nothing; the board adds, edits, deactivates and deletes a fee.
 */

async function openFee(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await page.getByRole('button', { name: 'Pay Registration fee' }).click();
}

/** The unpaid count the Registration fee's card shows. */
async function unpaidCount(
  page: Page,
  feeCard = page.getByRole('listitem').filter({ hasText: 'Registration fee' }).first(),
) {
  const text = (await feeCard.getByText(/unpaid/).textContent()) ?? '';
  return Number(/(\d+) unpaid/.exec(text)?.[1]);
}

/** Ticks the first `count` unpaid candidates; answers their index numbers. */
async function tick(page: Page, count: number) {
  // Candidates another payment in progress holds cannot be ticked (issue 22): the free ones are.
  const boxes = page
    .getByRole('group', { name: /Your unpaid candidates/ })
    .getByRole('checkbox', { disabled: false });
  await expect(boxes.first()).toBeVisible();
  const indexes: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const box = boxes.nth(i);
    await box.check();
    indexes.push(((await box.locator('..').textContent()) ?? '').trim().split(' ')[0]);
  }
  return indexes;
}

const checkout = (page: Page) => page.frameLocator('iframe[title="Sandbox checkout"]');

test('a school admin pays for three candidates through the sandbox popup and sees the receipt', async ({
  page,
}) => {
  await signIn(page, 'school1@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  const before = await unpaidCount(page);
  await page.getByRole('button', { name: 'Pay Registration fee' }).click();
  const indexes = await tick(page, 3);
  await page.getByRole('button', { name: 'Pay for the ticked candidates' }).click();
  // The server's sum, shown before paying.
  await expect(page.getByTestId('quote-amount')).toHaveText('₦45,000.00');
  await page.getByRole('button', { name: 'Pay ₦45,000.00' }).click();

  await expect(checkout(page).getByText('₦45,000.00')).toBeVisible();
  await checkout(page).getByRole('button', { name: 'Pay', exact: true }).click();

  const outcome = page.getByTestId('payment-outcome');
  await expect(outcome.getByRole('heading', { name: 'Payment received.' })).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Payment received. Your receipt is ready.' }),
  ).toBeVisible();
  const receiptNumber = (await outcome
    .getByText(/^Receipt /)
    .locator('strong')
    .textContent())!;
  expect(receiptNumber).toMatch(/^RCT\/\d{4}\/\d{6}$/);
  await outcome.getByRole('link', { name: 'View and print the receipt' }).click();

  const receipt = page.getByRole('article', { name: `Receipt ${receiptNumber}` });
  await expect(receipt).toBeVisible();
  await expect(receipt.getByText('₦45,000.00')).toBeVisible();
  // The provider's fees as it reports them (Paystack's local-card pricing: 1.5% + ₦100), borne by the board.
  await expect(receipt.getByTestId('receipt-fees')).toHaveText('₦775.00 (borne by the board)');
  await expect(receipt.getByTestId('receipt-charged')).toHaveCount(0);
  for (const index of indexes) await expect(receipt.getByRole('cell', { name: index })).toBeVisible();
  await expect(receipt.getByRole('button', { name: 'Print' })).toBeVisible();

  // Credited once: three fewer unpaid, and the history says paid.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await expect.poll(() => unpaidCount(page)).toBe(before - 3);
  await page.getByRole('link', { name: 'Payment histories' }).click();
  await expect(page.getByRole('row').filter({ hasText: receiptNumber })).toContainText('Paid');
});

test('a declined payment and an abandoned one each say so and leave nothing credited', async ({ page }) => {
  await signIn(page, 'school1@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  const before = await unpaidCount(page);
  await page.getByRole('button', { name: 'Pay Registration fee' }).click();
  await tick(page, 1);
  await page.getByRole('button', { name: 'Pay for the ticked candidates' }).click();
  await page.getByRole('button', { name: 'Pay ₦15,000.00' }).click();
  await checkout(page).getByRole('button', { name: 'Decline' }).click();
  const outcome = page.getByTestId('payment-outcome');
  await expect(
    outcome.getByRole('heading', { name: 'The payment was declined. Nothing was credited.' }),
  ).toBeVisible();
  await expect(
    page.getByRole('alert').filter({ hasText: 'The payment was declined. Nothing was credited.' }),
  ).toBeVisible();

  // The same transaction, tried again, then left.
  await outcome.getByRole('button', { name: 'Try the payment again' }).click();
  await checkout(page).getByRole('button', { name: 'Abandon' }).click();
  await expect(
    outcome.getByRole('heading', { name: 'The payment was not completed. Nothing was charged.' }),
  ).toBeVisible();

  // A fresh payment closed from the popup's own close button says the same.
  await outcome.getByRole('button', { name: 'See payment histories' }).click();
  await expect(page.getByRole('heading', { name: 'Payment histories' })).toBeVisible();
  await openFee(page);
  await tick(page, 1);
  await page.getByRole('button', { name: 'Pay for the ticked candidates' }).click();
  await page.getByRole('button', { name: 'Pay ₦15,000.00' }).click();
  await page.getByRole('button', { name: 'Close checkout' }).click();
  await expect(
    page
      .getByTestId('payment-outcome')
      .getByRole('heading', { name: 'The payment was not completed. Nothing was charged.' }),
  ).toBeVisible();

  await page.reload();
  await expect.poll(() => unpaidCount(page)).toBe(before);
});

test('the board adds, edits, deactivates and deletes a fee', async ({ page }) => {
  await signIn(page, 'admin@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { name: 'Fees', level: 2 })).toBeVisible();

  await page.getByRole('button', { name: 'Add a fee' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a fee' });
  await dialog.getByLabel('Title').fill('Oral examination fee');
  await dialog.getByLabel('Kind').selectOption('other');
  await dialog.getByLabel('Amount (₦)').fill('2,500.x');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // A mistake is said beside its field, and nothing typed is lost.
  await expect(dialog.getByText(/Enter an amount in naira/)).toBeVisible();
  await expect(dialog.getByLabel('Title')).toHaveValue('Oral examination fee');
  await dialog.getByLabel('Amount (₦)').fill('2,500');
  await dialog.getByLabel('A1', { exact: true }).check();
  // A fee for the last diet (closed), so its edit form must show that diet, not the current one.
  const pastDiet = await dialog
    .getByLabel('Diet')
    .locator('option', { hasText: ', closed' })
    .first()
    .getAttribute('value');
  await dialog.getByLabel('Diet').selectOption(pastDiet!);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Fee added.' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Oral examination fee' });
  await expect(row).toContainText('₦2,500.00');
  await expect(row).toContainText('A1');

  await row.getByRole('button', { name: 'Edit Oral examination fee' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Oral examination fee' });
  // Saved at once, while the diets are still being asked for again (the add made them stale): the
  // fee keeps its own diet (this once answered 'Choose the diet').
  await edit.getByLabel('Amount (₦)').fill('3000');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Fee saved.' })).toBeVisible();
  await expect(row).toContainText('₦3,000.00');
  await expect(row).toContainText(pastDiet!);
  await row.getByRole('button', { name: 'Edit Oral examination fee' }).click();
  await expect(edit.getByLabel('Diet')).toHaveValue(pastDiet!);
  await edit.getByRole('button', { name: 'Cancel' }).click();

  await row.getByLabel('Status of Oral examination fee').selectOption('inactive');
  await page
    .getByRole('alertdialog', { name: 'Stop collecting Oral examination fee?' })
    .getByRole('button', { name: 'Make inactive' })
    .click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Oral examination fee is now inactive.' }),
  ).toBeVisible();

  await row.getByRole('button', { name: 'Delete Oral examination fee' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete this fee?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: 'Fee deleted.' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Oral examination fee' })).toHaveCount(0);

  // A paid fee cannot be deleted; the page says why.
  const paid = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: /^Registration fee/ }) });
  await expect(paid.getByRole('button', { name: 'Delete Registration fee' })).toBeDisabled();
});

test('the board verifies a reference by hand and resolves a reconciliation item with a note', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await page.goto('/payments/histories');
  await page.getByLabel('Verify a reference by hand').fill('WHB-NOSUCHPAYMENT');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('There is no payment with this reference.').first()).toBeVisible();

  // The demo's pending transfer, asked again: the provider still says it is pending.
  await page.getByLabel('Status').selectOption('pending');
  await page.getByRole('button', { name: 'Search' }).click();
  const pending = page.getByRole('row').filter({ hasText: 'WHB-DEMO' }).first();
  await expect(pending).toContainText('Pending');
  await pending.getByRole('button', { name: /^Verify WHB-/ }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your payment is pending with the provider.' }),
  ).toBeVisible();

  await page.getByRole('link', { name: 'Reconciliation' }).click();
  const item = page.getByRole('row').filter({ hasText: 'Amount mismatch' });
  await item.getByRole('button', { name: /^Resolve / }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve' });
  await dialog.getByRole('button', { name: 'Mark as resolved' }).click();
  await expect(dialog.getByLabel('What was done')).toHaveAccessibleDescription(/Say how this was resolved/);
  await dialog
    .getByLabel('What was done')
    .fill('Refunded ₦1,000 to CHT-CA through Paystack; they will pay again.');
  await dialog.getByRole('button', { name: 'Mark as resolved' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Marked as resolved.' })).toBeVisible();
  await expect(item).toContainText('Refunded ₦1,000 to CHT-CA');
});
