import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { DocumentCatalogue, PrintedDocument } from '../../contract/documents';
import { DOCUMENT_ENDPOINTS } from '../../contract/documents.endpoints';
import { fillPath } from '../../contract/endpoint';
import { apiSignIn, signIn } from './support';

/**
 * Printable documents in the browser: Print Documents chooses a document and its parameters, previews
 * it (its print page in a new tab), downloads its PDF; a school admin is offered only what the board
 * lets schools print; photocards carry their own QR codes; and a code from a printed page is checked on
 * /verify by someone who is not signed in.
 */

async function catalogueOf(request: APIRequestContext, token: string, role: 'admin' | 'school_admin') {
  const answer = await request.get(DOCUMENT_ENDPOINTS.catalogue[role].path, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data as DocumentCatalogue;
}

async function openPrintDocuments(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Print Documents' }).click();
  await expect(page.getByRole('heading', { name: 'Print Documents', level: 1 })).toBeVisible();
}

/** Checks a code as a stranger with a phone: a new browser context, never signed in, 390 px wide. */
async function verifyAsStranger(browser: Browser, page: Page, code: string) {
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    viewport: { width: 390, height: 844 },
  });
  const phone = await context.newPage();
  await phone.goto(`/verify/${code}`);
  await expect(phone.getByTestId('verification-status')).toBeVisible();
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  return { phone, close: () => context.close() };
}

test('the board admin previews a school’s indexed candidates list, downloads its PDF, and its code verifies as genuine', async ({
  browser,
  page,
  context,
}) => {
  await signIn(page, 'admin@example.org');
  await openPrintDocuments(page);
  await page.getByRole('link', { name: 'Indexed candidates list' }).click();
  await expect(page).toHaveURL(/\/print-document\?document=indexed-candidate-list$/);
  const chosen = page.getByRole('heading', { name: 'Indexed candidates list', level: 2 });
  await expect(chosen).toBeFocused();
  await page.getByLabel('Training school', { exact: true }).selectOption('SHT-IB');

  // Preview: the print page, in a new tab, without the shell.
  const opened = context.waitForEvent('page');
  await page.getByRole('link', { name: /^Preview/ }).click();
  const preview = await opened;
  await expect(preview).toHaveURL(/\/print-document\/indexed-candidate-list\?school=SHT-IB/);
  await expect(preview.getByRole('heading', { name: 'Indexed candidates list', level: 1 })).toBeVisible();
  await expect(preview.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  const document = preview.locator('article.printed-document');
  await expect(document).toContainText('West African Health Examinations Board');
  await expect(document).toContainText('SHT-IB');
  await expect(preview.getByTestId('printed-at')).toBeVisible();
  // Its rows: SHT-IB's candidates by index number, under one header row.
  const rows = document.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(10);
  await expect(rows.first()).toContainText(/WHB\/\d{2}\//);
  await expect(document.locator('thead')).toHaveCount(1);
  await expect(preview.getByTestId('qr-code').first()).toBeVisible();
  const code = (await preview.getByTestId('verification-code').first().textContent())!.trim();
  expect(code.length).toBeGreaterThan(6);
  // Print and Download PDF are there, and not printed.
  await expect(preview.getByRole('button', { name: 'Print' })).toBeVisible();
  await preview.emulateMedia({ media: 'print' });
  await expect(preview.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(preview.getByRole('button', { name: 'Download PDF' })).toBeHidden();
  // On a phone the list scrolls sideways in its own frame, a named region the keyboard reaches and scrolls.
  await preview.emulateMedia({ media: 'screen' });
  await preview.setViewportSize({ width: 390, height: 844 });
  const frame = preview.getByRole('region', { name: 'Table (scrolls sideways)' });
  await expect(frame).toBeVisible();
  expect(await preview.evaluate(() => window.document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await preview.getByRole('button', { name: 'Download PDF' }).focus();
  await preview.keyboard.press('Tab');
  await expect(frame).toBeFocused();
  await preview.keyboard.press('ArrowRight');
  await expect.poll(() => frame.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
  await preview.close();

  // Download PDF from the keyboard: a real PDF, fetched with the session's token; the focus stays on
  // the button while it is made and after (a disabled busy button dropped it on <body>).
  const download = page.waitForEvent('download');
  const downloadButton = page.getByRole('button', { name: /Download PDF|Making the PDF/ });
  await downloadButton.focus();
  await page.keyboard.press('Enter');
  const file = await download;
  await expect(page.getByRole('button', { name: 'Download PDF' })).toBeFocused();
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const bytes = fs.readFileSync((await file.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(2000);

  // The printed code, checked by someone not signed in: genuine, and what it certified.
  const { phone, close } = await verifyAsStranger(browser, page, code);
  await expect(phone.getByTestId('verification-status')).toHaveText(/Genuine/);
  await expect(phone.getByRole('heading', { name: 'Indexed candidates list' })).toBeVisible();
  await close();
});

test('a missing required parameter is said before printing, and the board’s switch lets schools print a document', async ({
  page,
  request,
}) => {
  await signIn(page, 'admin@example.org');
  await openPrintDocuments(page);
  await page.getByRole('link', { name: 'Practical mark sheet' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Choose the ' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Preview/ })).toHaveCount(0);
  await expect(page.getByLabel('Training school *', { exact: true })).toHaveAttribute('required', '');

  // The print page asked without its parameters says the server's sentence, with the way back.
  await page.goto('/print-document/practical-marksheet');
  await expect(page.getByRole('alert')).toContainText(/Choose the/);
  // Nothing to print: no Print button for the browser to print the error with.
  await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(0);
  // Nor "Try again": the same request would be refused the same way.
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to Print Documents' }).click();
  await expect(page).toHaveURL(/\/print-document\?document=practical-marksheet$/);

  // The switch, from the keyboard: on, then off again, each saved on the server.
  const allowed = page.getByRole('switch', { name: /Training schools may print this: Result analysis/ });
  await expect(allowed).not.toBeChecked();
  const school = await apiSignIn(request, 'school1@example.org');
  await allowed.focus();
  await page.keyboard.press('Space');
  await expect(allowed).toBeChecked();
  await expect(page.getByText('Saving…')).toHaveCount(0);
  expect((await catalogueOf(request, school, 'school_admin')).documents.map((d) => d.ending)).toContain(
    'result-analysis',
  );
  await page.keyboard.press('Space');
  await expect(allowed).not.toBeChecked();
  await expect(page.getByText('Saving…')).toHaveCount(0);
  expect((await catalogueOf(request, school, 'school_admin')).documents.map((d) => d.ending)).not.toContain(
    'result-analysis',
  );
});

test('a school admin is offered only the documents schools may print, for their own school, on a phone', async ({
  page,
  request,
}) => {
  const admin = await apiSignIn(request, 'admin@example.org');
  const board = await catalogueOf(request, admin, 'admin');
  const forSchools = board.documents.filter((doc) => doc.schoolsMayPrint).map((doc) => doc.title);
  const notForSchools = board.documents.filter((doc) => !doc.schoolsMayPrint).map((doc) => doc.title);
  expect(forSchools.length).toBeGreaterThan(0);
  expect(notForSchools.length).toBeGreaterThan(0);

  await signIn(page, 'school1@example.org');
  await openPrintDocuments(page);
  const list = page.getByRole('navigation', { name: 'Documents' });
  for (const title of forSchools)
    await expect(list.getByRole('link', { name: title, exact: true })).toBeVisible();
  for (const title of notForSchools)
    await expect(list.getByRole('link', { name: title, exact: true })).toHaveCount(0);
  // No board switches for a school.
  await expect(page.getByRole('switch')).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await list.getByRole('link', { name: 'Indexed candidates list', exact: true }).click();
  // The school is the school admin's own, fixed.
  await expect(page.getByText('School of Health Technology, Ibadan (SHT-IB)')).toBeVisible();
  await expect(page.getByLabel('Training school', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Preview/ })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // A document not for schools, asked by its address: the server's sentence.
  await page.goto('/print-document/result-analysis');
  await expect(page.getByRole('alert')).toContainText(
    'The board does not let training schools print this document.',
  );
});

test('the diet’s photocards each carry the photo, a QR code and code, and a card’s code verifies', async ({
  browser,
  page,
  request,
}) => {
  // The diet SHT-IB's candidates sit (this one, else an earlier one), as the server's cards say.
  const school = await apiSignIn(request, 'school1@example.org');
  const { options } = await catalogueOf(request, school, 'school_admin');
  const diets = [...options.diets].sort((a, b) => Number(b.current) - Number(a.current));
  let diet: (typeof diets)[number] | undefined;
  for (const candidate of diets) {
    const path = fillPath(DOCUMENT_ENDPOINTS.print.school_admin.path, { ending: 'photocard' });
    const answer = await request.get(`${path}?diet=${candidate.code}`, {
      headers: { Authorization: `Bearer ${school}` },
    });
    const printed = (await answer.json()).data as PrintedDocument;
    if (printed.blocks.some((block) => block.kind === 'cards' && block.cards.length > 0)) {
      diet = candidate;
      break;
    }
  }
  expect(diet, 'a diet SHT-IB has candidates sitting').toBeDefined();

  await signIn(page, 'school1@example.org');
  await page.goto(`/print-document/photocard?diet=${diet!.code}`);
  await expect(page.getByRole('heading', { name: 'Photo cards', level: 1 })).toBeVisible();
  const cards = page.getByRole('article', { name: /^Photo card of / });
  await expect(cards.first()).toBeVisible();
  const count = await cards.count();
  expect(count).toBeGreaterThan(0);
  // Every card has its own QR code and code, and a signature box; codes differ card to card.
  await expect(page.getByRole('list', { name: 'Photo cards' }).getByTestId('qr-code')).toHaveCount(count);
  const codes = await page
    .getByRole('list', { name: 'Photo cards' })
    .getByTestId('verification-code')
    .allTextContents();
  expect(new Set(codes).size).toBe(count);
  await expect(cards.first()).toContainText("Candidate's signature");
  await expect(cards.first()).toContainText(/WHB\/\d{2}\//);
  // A card's SURNAME comes first, in capitals.
  const surname = (await cards.first().getByTestId('card-surname').textContent())!;
  expect(surname.length).toBeGreaterThan(1);
  expect(surname).toBe(surname.toUpperCase());

  const { phone, close } = await verifyAsStranger(browser, page, codes[0].trim());
  await expect(phone.getByTestId('verification-status')).toHaveText(/Genuine/);
  await close();
});

test('/verify takes a code by hand, and says plainly when the board never issued it', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Opened from a QR code on a phone, signed out: nothing of the signed-in pages' chunks comes with it
  // (scripts/chunkGroups.ts once put the pages' router in the shell's group: 45 KB more on a slow link).
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/[^/]+\.js$/.test(request.url())) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/verify');
  await expect(page.getByRole('heading', { name: 'Check a printed document' })).toBeVisible();
  await page.getByLabel('The code printed beside the QR code').fill('NOT-A-REAL-CODE');
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page).toHaveURL(/\/verify\/NOT-A-REAL-CODE$/);
  await expect(page.getByRole('alert')).toHaveText(
    'This code was not issued by the board. Check it against the paper, letter by letter.',
  );
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  expect(scripts.filter((script) => /\/(Shell|lists)-[^/]+\.js$/.test(script))).toEqual([]);
});

test('a payment receipt fits a phone with its columns apart, and its code verifies, each fact said once', async ({
  browser,
  page,
}) => {
  await signIn(page, 'school1@example.org');
  await page.goto('/payments/histories');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('link', { name: 'Receipt', exact: true }).first().click();
  const receipt = page.getByRole('article', { name: /^Receipt RCT\// });
  await expect(receipt).toBeVisible();
  // The board's name heads it, as it heads every printed document.
  await expect(receipt.getByText('West African Health Examinations Board', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // An index number and the name beside it do not run together.
  const firstRow = receipt.getByRole('row').nth(1);
  const index = (await firstRow.getByRole('link').boundingBox())!;
  const name = (await firstRow.getByRole('cell').nth(1).boundingBox())!;
  expect(name.x - (index.x + index.width)).toBeGreaterThanOrEqual(4);

  const code = (await receipt.getByTestId('verification-code').textContent())!.trim();
  const { phone, close } = await verifyAsStranger(browser, page, code);
  await expect(phone.getByTestId('verification-status')).toHaveText(/Genuine/);
  await expect(phone.getByRole('heading', { name: 'Payment receipt' })).toBeVisible();
  await expect(phone.getByText('Training school', { exact: true })).toHaveCount(1);
  await close();
});

test('print pages with charts fit a 390 px phone (a chart’s numbers, kept for screen readers, widen nothing)', async ({
  page,
  request,
}) => {
  const admin = await apiSignIn(request, 'admin@example.org');
  const { options } = await catalogueOf(request, admin, 'admin');
  const diet = options.diets.find((d) => d.current) ?? options.diets[0];
  await signIn(page, 'admin@example.org');
  await page.setViewportSize({ width: 390, height: 844 });
  for (const address of [
    '/print-document/course-index-stats',
    `/print-document/course-reg-stats?diet=${diet.code}`,
  ]) {
    await page.goto(address);
    await expect(page.getByTestId('chart').first()).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, address).toBeLessThanOrEqual(390);
  }
});
