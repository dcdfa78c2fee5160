import { expect, test, type Page } from '@playwright/test';
import type { OffenderRow } from '../../contract/offenders';
import { listSettled } from './indexing';
import { apiSignIn, signIn } from './support';

/**
 * Issue 25, item 6: a candidate's record page, opened from a list row and from a search result, its
 * sections, its photo and its print links (each in a new tab), from the keyboard and on a phone.
 */

const SECTIONS = [
  'Identity',
  'Documents',
  'Registration',
  'Payments',
  'Offences and sanctions',
  'Results',
  'Print',
];

/** The record page as shown: its heading focused, every section headed, the photo loaded. */
async function expectRecord(page: Page, candidateIndex: string) {
  await expect(page).toHaveURL(/\/candidate\/record\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The link it was opened from went with the list: the keyboard's focus is on the candidate's name.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await expect(page.getByText(candidateIndex, { exact: true }).first()).toBeVisible();
  for (const name of SECTIONS) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  const photo = page.getByRole('img', { name: /^Photo of / });
  await expect(photo).toBeVisible();
  // The photo really came from /files/* (a broken image has no natural width).
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const print = page.getByRole('region', { name: 'Print' });
  const encoded = encodeURIComponent(candidateIndex);
  for (const [title, ending] of [
    ['Candidate information sheet', 'candidate-info'],
    ['Candidate index form', 'candidate-index-form'],
  ]) {
    const link = print.getByRole('link', { name: new RegExp(`^${title}`) });
    await expect(link).toHaveAttribute('href', `/print-document/${ending}?candidate=${encoded}`);
    await expect(link).toHaveAttribute('target', '_blank');
  }
  return print;
}

test('the board opens a record from Indexed Candidates with the keyboard, and from the search', async ({
  page,
  request,
}) => {
  await signIn(page, 'admin@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Indexed Candidates' })
    .click();
  await listSettled(page);
  const firstRow = page.getByRole('row').nth(1);
  const link = firstRow.getByRole('link').first();
  const candidateIndex = (await link.textContent())!.trim();
  expect(candidateIndex).toMatch(/^WHB\//);
  await link.focus();
  await page.keyboard.press('Enter');
  await expectRecord(page, candidateIndex);
  // The list it came from stays marked in the sidebar.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Indexed Candidates' }),
  ).toHaveAttribute('aria-current', 'page');
  // On a phone the page fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // An offender, found by the search: their offence is on their record, in force or run out.
  const token = await apiSignIn(request, 'admin@example.org');
  const offenders = await request.get('/api/admin/exam-offenders', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const [offender] = (await offenders.json()).data.items as OffenderRow[];
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Candidate Search' })
    .click();
  await page.getByLabel('Name or index number').fill(offender.candidate_index);
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  const found = page.getByRole('row').filter({ hasText: offender.candidate_index });
  await expect(found).toHaveCount(1);
  // The row's own action still works beside the new link.
  await expect(found.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', /edit-candidate\?id=\d+/);
  await found.getByRole('link', { name: offender.candidate_index }).click();
  await expectRecord(page, offender.candidate_index);
  const offences = page.getByRole('region', { name: 'Offences and sanctions' });
  const offenceRow = offences.getByRole('row').filter({ hasText: offender.offence });
  await expect(offenceRow).toContainText(offender.active ? 'In force' : 'Run out');
});

test("a school admin opens their candidate's record from Registered Candidates, with its photocard", async ({
  page,
}) => {
  await signIn(page, 'school1@example.org');
  await page.goto('/candidate/candidate-registered?reg_status=registered');
  await listSettled(page);
  const link = page.getByRole('row').nth(1).getByRole('link').first();
  const candidateIndex = (await link.textContent())!.trim();
  await link.click();
  const print = await expectRecord(page, candidateIndex);
  await expect(page.getByText('School of Health Technology, Ibadan (SHT-IB)')).toBeVisible();
  // Registered for the current diet: its photocard prints, in a new tab.
  const photocard = print.getByRole('link', { name: /^Photo cards/ });
  await expect(photocard).toHaveAttribute(
    'href',
    new RegExp(`^/print-document/photocard\\?diet=[^&]+&candidate=${encodeURIComponent(candidateIndex)}$`),
  );
  await expect(photocard).toHaveAttribute('target', '_blank');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Registered Candidates' }),
  ).toHaveAttribute('aria-current', 'page');
});
