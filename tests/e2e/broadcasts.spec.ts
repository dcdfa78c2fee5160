import { expect, test } from '@playwright/test';
import { pngBytes, signIn } from './support';

/**
 * Broadcasts end to end (issue 26): the board sends one with an attachment to one state's schools,
 * asking for acknowledgement (a refused file first: the form keeps what was typed); a school there reads
 * it from its Dashboard and acknowledges it; a school elsewhere never sees it; the board sees the counts.
 */

test('a broadcast to Oyo is read and acknowledged by SHT-IB, unseen by CHT-CA, and counted for the board', async ({
  page,
  browser,
}) => {
  const title = `Exam timetable ${Date.now()}`;
  await signIn(page, 'admin@example.org');
  await page.getByRole('button', { name: 'Broadcast', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Send a broadcast' }).click();
  await page.getByRole('button', { name: 'Write a broadcast' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a broadcast' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Message').fill('The timetable is attached.\n<b>Bring</b> your admission letters.');
  await dialog.getByLabel('Send to').selectOption('state');
  await dialog.getByLabel('State').selectOption('Oyo');
  await dialog.getByLabel('Ask each school to acknowledge it').check();
  await dialog
    .getByLabel('Attachment 1')
    .setInputFiles({ name: 'timetable.png', mimeType: 'image/png', buffer: pngBytes() });
  // A text file dressed as a PDF is refused by its content; the rest of the form stays as typed.
  await dialog
    .getByLabel('Attachment 2')
    .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
  await dialog.getByRole('button', { name: 'Send the broadcast' }).click();
  await expect(dialog.getByLabel('Attachment 2')).toHaveAccessibleDescription(
    'Attach a PDF or an image (JPEG, PNG, GIF or WebP)',
  );
  await expect(dialog.getByLabel('Title')).toHaveValue(title);
  await expect(dialog.getByLabel('State')).toHaveValue('Oyo');
  await dialog.getByLabel('Attachment 2').setInputFiles([]);
  await dialog.getByRole('button', { name: 'Send the broadcast' }).click();
  await expect(
    page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'The broadcast has been sent.' }),
  ).toBeVisible();

  // SHT-IB (Oyo) reads it from its Dashboard, and acknowledges it.
  const ibContext = await browser.newContext();
  const ib = await ibContext.newPage();
  await signIn(ib, 'school1@example.org');
  await ib.getByRole('link', { name: /Broadcasts to acknowledge/ }).click();
  await ib.getByRole('link', { name: title }).click();
  await expect(ib.getByRole('heading', { name: title })).toBeVisible();
  // The body is text: the tags show as typed.
  await expect(ib.getByText('<b>Bring</b> your admission letters.')).toBeVisible();
  await expect(ib.getByRole('button', { name: 'timetable.png' })).toBeVisible();
  await ib.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await ib.getByRole('alertdialog').getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ib.getByText(/Your school acknowledged it on/)).toBeVisible();
  await ibContext.close();

  // CHT-CA (Cross River) never sees it.
  const caContext = await browser.newContext();
  const ca = await caContext.newPage();
  await signIn(ca, 'school2@example.org');
  await ca.getByRole('link', { name: /Broadcasts to acknowledge/ }).click();
  await expect(ca.getByRole('heading', { name: 'Broadcasts from the board' })).toBeVisible();
  await expect(ca.getByText(title)).toHaveCount(0);
  await caContext.close();

  // The board sees the counts and the school's state.
  await page.getByRole('button', { name: 'Broadcast', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Your broadcast' }).click();
  await page.getByRole('link', { name: title }).click();
  await expect(page.getByTestId('count-read')).toHaveText('1');
  await expect(page.getByTestId('count-acknowledged')).toHaveText('1');
  await expect(page.getByTestId('recipient-SHT-IB')).not.toContainText('Not yet');
  await expect(page.getByTestId('recipient-CHT-CA')).toHaveCount(0);
});
