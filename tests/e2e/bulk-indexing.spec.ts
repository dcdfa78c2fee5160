import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { zipSync } from 'fflate';
import { BULK_COLUMNS } from '../../contract/bulkIndexing';
import { VALID_CANDIDATE } from '../fixtures/candidate';
import { uniqueLetters } from './indexing';
import { pngBytes, signIn } from './support';

/**
 * Bulk indexing in the browser: the dry run shows a bad row's message in the form's words and counts the
 * good ones; the import indexes the good rows, with progress, and the report says their index numbers.
 */
test('a bulk import’s dry run shows a bad row’s spec message, then the import indexes the good rows', async ({
  page,
}) => {
  const suffix = uniqueLetters();
  const row = (first: string, overrides: Record<string, string> = {}) => {
    // The form's valid candidate (tests/fixtures), the date of birth as a CSV row writes it.
    const values: Record<string, string> = {
      ...VALID_CANDIDATE,
      first_name: first,
      last_name: `Bulk${suffix}`,
      middle_name: '',
      date_of_birth: VALID_CANDIDATE.date_of_birth.split('-').reverse().join('/'),
      ...overrides,
    };
    return BULK_COLUMNS.map((column) => values[column] ?? '').join(',');
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bulk-e2e-'));
  const csv = path.join(dir, 'candidates.csv');
  fs.writeFileSync(
    csv,
    [BULK_COLUMNS.join(','), row('Amaka'), row('Bode', { date_of_birth: '31/02/2001' }), row('Chika')].join(
      '\n',
    ),
  );
  const zip = path.join(dir, 'files.zip');
  fs.writeFileSync(
    zip,
    zipSync({ '1-photo.png': pngBytes(), '2-photo.png': pngBytes(), '3-photo.png': pngBytes() }),
  );

  await signIn(page, 'admin@example.org');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Candidate Index Form' })
    .click();
  await page.getByRole('link', { name: 'Index candidates from a CSV file' }).click();
  await expect(page.getByRole('heading', { name: 'Index candidates in bulk' })).toBeVisible();

  // The template downloads.
  const template = page.waitForEvent('download');
  await page.getByRole('button', { name: 'CSV template' }).click();
  expect((await template).suggestedFilename()).toMatch(/^candidates-template-\d{4}-\d{2}-\d{2}\.csv$/);

  await page.getByLabel('Candidates (CSV file)').setInputFiles(csv);
  await page.getByLabel('Photos and certificates (zip file, optional)').setInputFiles(zip);
  await page.getByRole('button', { name: 'Check the files' }).click();
  await expect(page.getByRole('heading', { name: 'The check: 2 of 3 rows can be indexed' })).toBeVisible();
  const problem = page.getByRole('row').filter({ hasText: 'date_of_birth' });
  await expect(problem).toContainText('2');
  await expect(problem).toContainText('Enter validate date of birth (DD/MM/YYYY)');

  await page.getByRole('button', { name: 'Import 2 candidates' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Done: 2 candidates indexed.' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '2 candidates indexed.' })).toBeVisible();

  const report = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the report (CSV)' }).click();
  const saved = path.join(dir, 'report.csv');
  await (await report).saveAs(saved);
  const text = fs.readFileSync(saved, 'utf8');
  expect(text).toContain('2,date_of_birth,Enter validate date of birth (DD/MM/YYYY)');
  expect(text).toMatch(/1,,Indexed,WHB\/\d{2}\/A1\/\d{6}/);
  expect(text).toMatch(/3,,Indexed,WHB\/\d{2}\/A1\/\d{6}/);

  // The indexed candidates are in the board's list.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Indexed Candidates' })
    .click();
  await page.getByLabel('Name or index number').fill(`Bulk${suffix}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row').filter({ hasText: `Bulk${suffix}` })).toHaveCount(2);
});
