import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { CANDIDATES_LIST } from '../../contract/lists';
import { indexCandidate, listSettled, uniqueLetters } from './indexing';
import { apiSignIn, signIn } from './support';

/**
 * The one list pattern in the browser: a filtered, sorted list keeps its query in the address, so a
 * reload (or the same link in another tab) shows the same rows; and its "Download CSV" gives exactly
 * those rows, all of them.
 */

test('a filtered list reloads to the same rows, and its CSV holds exactly them', async ({
  page,
  request,
}) => {
  const token = await apiSignIn(request, 'admin@example.org');
  const surname = `Listed${uniqueLetters()}`;
  const firstNames = ['Abike', 'Bisola', 'Chiamaka'];
  const numbers: string[] = [];
  for (const first_name of firstNames) {
    numbers.push(
      await indexCandidate(request, token, { first_name, last_name: surname, school_code: 'SHT-IB' }),
    );
  }
  // Another school's namesake: the school filter leaves it out.
  await indexCandidate(request, token, { first_name: 'Dayo', last_name: surname, school_code: 'CHT-CA' });

  await signIn(page, 'admin@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Candidate Search' })
    .click();
  await expect(page.getByRole('heading', { name: 'Candidate Search' })).toBeVisible();
  await page.getByLabel('Name or index number').fill(surname);
  await page.getByLabel('School').selectOption('SHT-IB');
  await page.getByRole('button', { name: 'Search' }).click();
  await listSettled(page);
  await page.getByLabel('Sort by').selectOption('index_number:asc');
  await listSettled(page);

  const rows = page.getByRole('row').filter({ hasText: surname });
  await expect(rows).toHaveCount(3);
  const shown = await rows.locator('td:first-child').allTextContents();
  expect(shown).toEqual([...numbers].sort());
  await expect(page).toHaveURL(
    new RegExp(`search=${surname}.*school=SHT-IB.*sort=index_number&direction=asc`),
  );

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Candidate Search' })).toBeVisible();
  await expect(rows).toHaveCount(3);
  expect(await rows.locator('td:first-child').allTextContents()).toEqual(shown);
  await expect(page.getByLabel('Name or index number')).toHaveValue(surname);
  await expect(page.getByLabel('Sort by')).toHaveValue('index_number:asc');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^candidates-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await file.path())!, 'utf8');
  const [header, ...cells] = parse(text, { bom: true }) as string[][];
  expect(header).toEqual(CANDIDATES_LIST.columns.map((column) => column.header));
  expect(cells.map((row) => row[0])).toEqual(shown);
  expect(cells.every((row) => row[1] === surname && row[4] === 'SHT-IB')).toBe(true);
});
