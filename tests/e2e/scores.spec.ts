import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { VALID_CANDIDATE } from '../fixtures/candidate';
import { uniqueLetters } from './indexing';
import { apiSignIn, pngBytes, signIn } from './support';

/**
 * Score entry in Chromium: two markers enter a paper's marks for ten candidates by keyboard alone,
 * one script they mark far apart goes to a third marker, the board locks the sheet and publishes the
 * results, and the school's admin reads its candidates' results.
 */

const MARKS_ONE = ['10', '12', '8', '15', '9.5'];
// Marker two: within a mark on every script but the third, 5 apart on Q1 (the tolerance is 2).
const marksTwo = (row: number) =>
  row === 2 ? ['15', '12', '8', '15', '9.5'] : ['10.5', '12', '8', '15', '8.5'];

/** Ten SHT-IB candidates of a course header of this run's own, verified and registered for the current diet. */
async function setUp(request: APIRequestContext) {
  const token = await apiSignIn(request, 'admin@example.org');
  const auth = { Authorization: `Bearer ${token}` };
  const code = `Y${10 + Math.floor(Math.random() * 90)}`;
  const header = await request.post('/api/admin/course-headers', {
    headers: auth,
    data: { code, title: `Scores ${uniqueLetters()}` },
  });
  expect(header.status(), await header.text()).toBe(200);
  const paper = await request.post('/api/admin/score/papers', {
    headers: auth,
    data: {
      course_header: code,
      name: 'Paper I',
      q1_max: '20',
      q2_max: '20',
      q3_max: '20',
      q4_max: '20',
      q5_max: '20',
      tolerance_question: '2',
      tolerance_total: '5',
    },
  });
  expect(paper.status(), await paper.text()).toBe(200);
  // No in-course part: publishing needs only the paper's locked sheet.
  const rules = await request.post(`/api/admin/score/course-headers/${code}/rules`, {
    headers: auth,
    data: { in_course_weight: '0', pass_mark: '50', grade_bands: 'A 70, B 60, C 50, F 0' },
  });
  expect(rules.status(), await rules.text()).toBe(200);
  const surname = uniqueLetters();
  const indexes: string[] = [];
  for (let i = 0; i < 10; i += 1) {
    const indexed = await request.post('/api/admin/candidates', {
      headers: auth,
      multipart: {
        ...VALID_CANDIDATE,
        middle_name: '',
        first_name: `Scorer${String.fromCharCode(97 + i)}`,
        last_name: surname,
        school_code: 'SHT-IB',
        course_header: code,
        photo: { name: 'photo.png', mimeType: 'image/png', buffer: pngBytes() },
      },
    });
    expect(indexed.status(), await indexed.text()).toBe(200);
    const { id, candidate_index } = (await indexed.json()).data as { id: number; candidate_index: string };
    indexes.push(candidate_index);
    const verified = await request.post(`/api/admin/candidates/${id}/verification`, {
      headers: auth,
      data: { verified: true },
    });
    expect(verified.status()).toBe(200);
    const registered = await request.post(`/api/admin/candidates/${id}/reg-status`, {
      headers: auth,
      data: { reg_status: 'registered' },
    });
    expect(registered.status(), await registered.text()).toBe(200);
  }
  return { code, indexes };
}

/** Opens a grid of the sheet from the Score Entry page. */
async function openGrid(page: Page, code: string, grid: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Score Entry' }).click();
  await page.getByRole('link', { name: `${grid} of ${code} Paper I` }).click();
  await expect(page.getByRole('table', { name: `${grid} marks` })).toBeVisible();
}

/** Types each row's marks with the keyboard alone: Tab from cell to cell, past Absent to the next row. */
async function typeMarks(page: Page, rows: number, marksOf: (row: number) => string[]) {
  const table = page.getByRole('table', { name: /marks$/ });
  await table.getByRole('textbox').first().focus();
  for (let row = 0; row < rows; row += 1) {
    for (const mark of marksOf(row)) {
      await page.keyboard.type(mark);
      await page.keyboard.press('Tab');
    }
    // Past the Absent box, to the next row's Q1.
    await page.keyboard.press('Tab');
  }
  await expect(page.getByText('All marks saved')).toBeVisible();
}

test('two markers mark ten scripts by keyboard, a third settles the divergent one, and the school reads its results', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { code, indexes } = await setUp(request);

  // The board opens the sheet for SHT-IB's candidates, with its two markers.
  await signIn(page, 'admin@example.org');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Score Entry' }).click();
  await page.getByRole('button', { name: 'Add a score sheet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a score sheet' });
  await dialog.getByLabel('Course header').selectOption(code);
  await expect(dialog.getByLabel('Paper')).toContainText('Paper I');
  await dialog.getByLabel('School code (empty: every school)').fill('SHT-IB');
  await dialog.getByLabel('Marker one').selectOption({ label: 'Chinedu Eze' });
  await dialog.getByLabel('Marker two').selectOption({ label: 'Funmilayo Adebayo' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Score sheet created' })).toBeVisible();

  // Marker one: a mark over the question's maximum is said at once and not saved.
  const one = await (await browser.newContext()).newPage();
  await signIn(one, 'marker1@example.org');
  await openGrid(one, code, 'Score marker one');
  const firstQ1 = one.getByRole('textbox', { name: /^Q1: / }).first();
  await firstQ1.focus();
  await one.keyboard.type('25');
  await expect(one.getByText('At most 20 for this question.')).toBeVisible();
  await one.keyboard.press('Backspace');
  await one.keyboard.press('Backspace');
  await typeMarks(one, 10, () => MARKS_ONE);
  await expect(one.getByRole('cell', { name: /^Total: / }).first()).toHaveText('54.5');
  await one.getByRole('button', { name: /Submit score marker one/ }).focus();
  await one.keyboard.press('Enter');
  // Submitting asks first, saying what will happen; by keyboard: the focus is in the dialog.
  const submitOne = one.getByRole('alertdialog', { name: 'Submit score marker one’s marks?' });
  await expect(submitOne).toContainText(
    'Submit score marker one’s marks for 10 candidates? You cannot change a mark afterwards without giving a reason; score marker two’s marks stay hidden from you until they submit.',
  );
  await one.keyboard.press('Escape');
  await expect(submitOne).toBeHidden();
  await expect(one.getByTestId('sheet-state')).toHaveText('Open');
  await one.getByRole('button', { name: /Submit score marker one/ }).click();
  await submitOne.getByRole('button', { name: 'Submit' }).focus();
  await one.keyboard.press('Enter');
  await expect(one.getByTestId('sheet-state')).toHaveText('Marker one submitted');

  // Marker two, blind to marker one's marks, on a phone-sized screen: the grid scrolls inside its box.
  const two = await (await browser.newContext()).newPage();
  await signIn(two, 'marker2@example.org');
  await openGrid(two, code, 'Score marker two');
  await expect(two.getByRole('textbox', { name: /^Q1: / }).first()).toHaveValue('');
  await two.setViewportSize({ width: 390, height: 800 });
  expect(await two.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await typeMarks(two, 10, marksTwo);
  await two.getByRole('button', { name: /Submit score marker two/ }).focus();
  await two.keyboard.press('Enter');
  const submitTwo = two.getByRole('alertdialog', { name: 'Submit score marker two’s marks?' });
  await expect(submitTwo).toContainText(
    'for 10 candidates? You cannot change a mark afterwards without giving a reason; score marker one has submitted, so both marks are compared at once and scripts out of tolerance go to the third marker.',
  );
  await submitTwo.getByRole('button', { name: 'Submit' }).click();
  await expect(two.getByTestId('sheet-state')).toHaveText('Reconciling');
  // Both marks side by side for the one script out of tolerance.
  const flagged = two.getByRole('region', { name: 'Scripts out of tolerance' }).getByRole('row');
  await expect(flagged).toHaveCount(2);
  await expect(flagged.nth(1)).toContainText('10 + 12 + 8 + 15 + 9.5 = 54.5');
  await expect(flagged.nth(1)).toContainText('15 + 12 + 8 + 15 + 9.5 = 59.5');

  // The board names a third marker, who marks that script alone.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toContainText('1 for a third marker');
  await row.getByRole('button', { name: /^Set the third marker/ }).click();
  const pick = page.getByRole('dialog', { name: /^Set the third marker/ });
  await pick.getByLabel('Third marker').selectOption({ label: 'Ibrahim Musa' });
  await pick.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Third marker set' })).toBeVisible();

  const three = await (await browser.newContext()).newPage();
  await signIn(three, 'marker3@example.org');
  await openGrid(three, code, 'Third marker');
  await expect(three.getByRole('textbox', { name: /^Q1: / })).toHaveCount(1);
  await typeMarks(three, 1, () => ['11', '12', '8', '15', '9.5']);
  // 55.5 is nearer marker one's 54.5: the mark is (54.5 + 55.5) / 2 = 55.
  const decided = three.getByRole('region', { name: 'Scripts out of tolerance' }).getByRole('row').nth(1);
  await expect(decided.getByRole('cell').last()).toHaveText('55');

  // The board locks the sheet and publishes the results.
  await openGrid(page, code, 'Score marker one');
  await page.getByRole('button', { name: 'Lock the sheet' }).click();
  const lock = page.getByRole('alertdialog', { name: 'Lock the sheet?' });
  await expect(lock).toContainText(
    'Lock the sheet? 10 scripts, 1 decided by the third marker; marks can change afterwards only after unlocking with a reason.',
  );
  await lock.getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(page.getByTestId('sheet-state')).toHaveText('Locked');
  await page.getByRole('navigation', { name: 'Score entry' }).getByRole('link', { name: 'Results' }).click();
  const publication = page.getByTestId(`publication-${code}`);
  await publication.getByRole('button', { name: `Publish ${code}` }).click();
  // Publishing asks first, saying what will happen.
  const ask = page.getByRole('alertdialog', { name: `Publish the results of ${code}?` });
  await expect(ask).toContainText('Results of 10 candidates will be shown to 1 school.');
  await ask.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Results published' })).toBeVisible();
  await expect(publication).not.toContainText('Not published');

  // The board holds one result with a reason, and releases it from its row.
  await page.getByRole('button', { name: 'Hold a result' }).click();
  const hold = page.getByRole('dialog', { name: 'Hold a result' });
  const held = indexes[0];
  await hold.getByLabel('Index number').fill(held);
  await hold.getByLabel('Reason').fill('Fee unpaid');
  await hold.getByRole('button', { name: 'Hold' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Result held' })).toBeVisible();
  await page.getByLabel('Name or index number').fill(held);
  await page.getByRole('search', { name: 'Find results' }).getByRole('button', { name: 'Search' }).click();
  const heldRow = page.getByRole('row').filter({ hasText: held });
  await expect(heldRow).toContainText('Fee unpaid');
  await heldRow.getByRole('button', { name: `Release the hold on ${held}` }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Hold released' })).toBeVisible();
  await expect(heldRow).toContainText('Pass');

  // The school's admin reads its candidates' results.
  const school = await (await browser.newContext()).newPage();
  await signIn(school, 'school1@example.org');
  await school
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Registered Candidates' })
    .click();
  await school.getByRole('link', { name: 'Results' }).click();
  await school.getByLabel('Course header').fill(code);
  await school.getByRole('button', { name: 'Search' }).click();
  const results = school.getByRole('row').filter({ hasText: 'Scorer' });
  await expect(results).toHaveCount(10);
  // Marker one 54.5 and marker two 54 agree (a half tenth up): 54.3 of 100, a C and a pass.
  await expect(results.first()).toContainText('54.3');
  await expect(results.first()).toContainText('Pass');
});
