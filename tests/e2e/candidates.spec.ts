import { expect, test, type Page } from '@playwright/test';
import { pngBytes, signIn } from './support';

/** A minimal real PDF, so the server's content check sees a PDF. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A candidate's id, from the board's list, as the edit page's address carries it. */
async function candidateIdOf(page: Page, candidateIndex: string): Promise<number> {
  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')!.value;
  const response = await page.request.get(
    `/api/admin/candidates?search=${encodeURIComponent(candidateIndex)}`,
    {
      headers: { Authorization: `Bearer ${decodeURIComponent(token)}` },
    },
  );
  return (await response.json()).data.items[0].id;
}

async function openIndexForm(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Candidate Index Form' })
    .click();
  await expect(page.getByRole('heading', { name: 'Candidate Index Form' })).toBeVisible();
  await expect(page.getByLabel('First name *')).toBeVisible();
}

test('an empty form shows each of the spec messages beside its field', async ({ page }) => {
  await signIn(page, 'admin@example.org');
  await openIndexForm(page);
  await page.getByRole('button', { name: 'Index candidate' }).click();
  for (const message of [
    'First Name is required',
    'Last Name is required',
    'Candidate School is required',
    'Date of birth is required',
    'Candidate category is required',
    'Course header is required',
    'Marital Status is required',
    'Nationality is required',
    'Gender is required',
    'Candidate profile photo is required',
    'Certificate is required',
    'Exam Year is required',
    'Exam Number is required',
    'Exam month is required',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.getByLabel('Course header *').selectOption('A4');
  await page.getByLabel('First name *').fill('Al');
  await page.getByRole('button', { name: 'Index candidate' }).click();
  await expect(page.getByText('First name must be at least 3 characters', { exact: true })).toBeVisible();
  await expect(page.getByText('Waheb Food Hygiene Certificate is required', { exact: true })).toBeVisible();
  await expect(page.getByText('Certificate is required', { exact: true })).toHaveCount(0);
  await page.getByLabel('Course header *').selectOption('B5');
  await page.getByRole('button', { name: 'Index candidate' }).click();
  await expect(page.getByText('WAHEB ND Certificate is required', { exact: true })).toBeVisible();
  // What was typed is still there.
  await expect(page.getByLabel('First name *')).toHaveValue('Al');
});

test("the date of birth is typed as DD/MM/YYYY; an impossible date shows the spec's message", async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await openIndexForm(page);
  const dateOfBirth = page.getByLabel('Date of birth *');
  await dateOfBirth.fill('31/02/2002');
  await page.getByRole('button', { name: 'Index candidate' }).click();
  await expect(page.getByText('Enter validate date of birth (DD/MM/YYYY)', { exact: true })).toBeVisible();
  await expect(page.getByText('Date of birth is required', { exact: true })).toHaveCount(0);
  await expect(dateOfBirth).toHaveValue('31/02/2002');
  // The calendar beside it writes its choice the board's way.
  await expect(page.getByRole('button', { name: 'Calendar for Date of birth' })).toBeVisible();
  await page.locator('input[type="date"]').fill('2002-05-17');
  await expect(dateOfBirth).toHaveValue('17/05/2002');
  await page.getByRole('button', { name: 'Index candidate' }).click();
  await expect(page.getByText('Enter validate date of birth (DD/MM/YYYY)', { exact: true })).toHaveCount(0);
});

test('a photo of 2,000,001 bytes is refused as too large, and the rest of the form is kept', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await openIndexForm(page);
  await page.getByLabel('First name *').fill('Chiamaka');
  await page
    .getByLabel('Candidate profile photo *')
    .setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(2_000_001, 1) });
  await page.getByRole('button', { name: 'Index candidate' }).click();
  await expect(page.getByText('File is too large', { exact: true })).toBeVisible();
  await expect(page.getByLabel('First name *')).toHaveValue('Chiamaka');
});

test('an admin indexes a candidate with a photo and certificates; the school admin registers them', async ({
  page,
}) => {
  await signIn(page, 'admin@example.org');
  await openIndexForm(page);
  await page.getByLabel('Title').selectOption('Miss');
  await page.getByLabel('First name *').fill('Ngozi');
  await page.getByLabel('Last name *').fill('Adebayo');
  await page.getByLabel('Date of birth *').fill('17/05/2002');
  await page.getByLabel('Gender *').selectOption('female');
  await page.getByLabel('Marital status *').selectOption('S');
  await page.getByLabel('Nationality *').selectOption('NG');
  await page.getByLabel('Candidate school *').selectOption('SHT-IB');
  await page.getByLabel('Course header *').selectOption('A1');
  await page.getByLabel('Candidate category *').selectOption('fresh');
  await page.getByLabel('Certificate 1 *').selectOption('WASSCE');
  await page.getByLabel('Exam year 1 *').fill('2020');
  await page.getByLabel('Exam number 1 *').fill('4250123456');
  await page.getByLabel('Exam month 1 *').selectOption('June');
  await page.getByLabel('English').selectOption('B3');
  await page.getByLabel('Biology').selectOption('C4');
  await page
    .getByLabel('Candidate profile photo *')
    .setInputFiles({ name: 'ngozi.png', mimeType: 'image/png', buffer: pngBytes() });
  await page
    .getByLabel("O'Level certificate", { exact: true })
    .setInputFiles({ name: 'waec.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Index candidate' }).click();

  const index = page.getByTestId('candidate-index');
  await expect(index).toHaveText(/^WHB\/\d{2}\/A1\/\d{6}$/);
  // Said in a toast that screen readers announce (issue 9: creates said nothing).
  await expect(page.getByRole('alert').filter({ hasText: 'Candidate indexed.' })).toBeVisible();
  const candidateIndex = (await index.textContent())!;

  // The board checks the stored documents from Indexed Candidates: the photo opens in a dialog, the
  // PDF certificate in a new tab.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Indexed Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(candidateIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  const indexedRow = page.getByRole('row').filter({ hasText: candidateIndex });
  await expect(indexedRow).toHaveCount(1);
  await indexedRow.getByRole('button', { name: "View Ngozi Adebayo's documents" }).click();
  const documents = page.getByRole('dialog', { name: 'Documents of Ngozi Adebayo' });
  const certificate = documents.getByRole('link', { name: "Open O'Level certificate (PDF, in a new tab)" });
  await expect(certificate).toHaveAttribute('target', '_blank');
  await expect(certificate).toHaveAttribute('rel', 'noopener');
  const pdf = await page.request.get((await certificate.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  await documents.getByRole('button', { name: 'View Candidate profile photo' }).click();
  const photo = documents.getByRole('img', { name: 'Candidate profile photo of Ngozi Adebayo' });
  await expect(photo).toBeVisible();
  // Loaded, not a broken image: the file route let the board admin's cookie in.
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await documents.getByRole('button', { name: 'Back to the documents' }).click();
  await expect(certificate).toBeVisible();
  // The dialog keeps the keyboard inside, and Escape closes it.
  await page.keyboard.press('Escape');
  await expect(documents).toBeHidden();
  // Having checked them, the board marks the documents verified: registration needs it.
  const verification = indexedRow.getByLabel('Documents of Ngozi Adebayo');
  await verification.selectOption('true');
  await expect(indexedRow.getByText('Saving…')).toBeHidden();
  await expect(verification).toHaveValue('true');

  // The same documents from the edit page.
  await page.goto(`/candidate/edit-candidate?id=${await candidateIdOf(page, candidateIndex)}`);
  await page.getByRole('button', { name: 'View the stored documents' }).click();
  await expect(
    page
      .getByRole('dialog', { name: 'Documents of Ngozi Adebayo' })
      .getByRole('link', { name: /O'Level certificate/ }),
  ).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // The school admin of SHT-IB registers the candidate from their list.
  await page.getByRole('button', { name: /profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await signIn(page, 'school1@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(candidateIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row').filter({ hasText: candidateIndex });
  await expect(row).toHaveCount(1);
  const status = row.getByLabel('Registration status of Ngozi Adebayo');
  await expect(status).toHaveValue('unregistered');
  await status.selectOption('registered');
  await expect(row.getByText('Saving…')).toBeHidden();
  await expect(status).toHaveValue('registered');
  // The change is said, in a toast screen readers announce.
  await expect(page.getByRole('alert').filter({ hasText: 'The candidate is registered.' })).toBeVisible();
  await page.reload();
  await page.getByLabel('Name or index number').fill(candidateIndex);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: candidateIndex })
      .getByLabel('Registration status of Ngozi Adebayo'),
  ).toHaveValue('registered');
});
