import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { VALID_CANDIDATE } from '../fixtures/candidate';
import { uniqueLetters } from './indexing';
import { apiSignIn, pngBytes, signIn } from './support';

/**
 * What a new marker met in the grid: a row never entered says 'Not entered' (not 'Saved') until its
 * marks are saved; the third marker's table of flagged scripts shows the final mark as soon as their
 * row is saved, without a reload.
 */

const FIVE = (q1: string) => [q1, '10', '10', '10', '10'];

/** Three candidates of a course header of this run's own, registered, and its Paper I (20 a question). */
async function setUp(request: APIRequestContext) {
  const token = await apiSignIn(request, 'admin@example.org');
  const headers = { Authorization: `Bearer ${token}` };
  const code = `Z${10 + Math.floor(Math.random() * 90)}`;
  const header = await request.post('/api/admin/course-headers', {
    headers,
    data: { code, title: `Grid ${uniqueLetters()}` },
  });
  expect(header.status(), await header.text()).toBe(200);
  const paper = await request.post('/api/admin/score/papers', {
    headers,
    data: {
      course_header: code,
      name: 'Paper I',
      ...Object.fromEntries(['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => [`${q}_max`, '20'])),
      tolerance_question: '2',
      tolerance_total: '5',
    },
  });
  expect(paper.status(), await paper.text()).toBe(200);
  const surname = uniqueLetters();
  const ids: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const indexed = await request.post('/api/admin/candidates', {
      headers,
      multipart: {
        ...VALID_CANDIDATE,
        middle_name: '',
        first_name: `Gridded${String.fromCharCode(97 + i)}`,
        last_name: surname,
        school_code: 'SHT-IB',
        course_header: code,
        photo: { name: 'photo.png', mimeType: 'image/png', buffer: pngBytes() },
      },
    });
    expect(indexed.status(), await indexed.text()).toBe(200);
    const { id } = (await indexed.json()).data as { id: number };
    ids.push(id);
    await request.post(`/api/admin/candidates/${id}/verification`, { headers, data: { verified: true } });
    const registered = await request.post(`/api/admin/candidates/${id}/reg-status`, {
      headers,
      data: { reg_status: 'registered' },
    });
    expect(registered.status(), await registered.text()).toBe(200);
  }
  const listed = await request.get('/api/admin/score/sheets', { headers });
  const people = (await listed.json()).data.markers as { id: number; name: string }[];
  const idOf = (name: string) => people.find((p) => p.name === name)!.id;
  const diets = (await (await request.get('/api/admin/diet-choices', { headers })).json()).data as {
    code: string;
    current: boolean;
  }[];
  const sheet = await request.post('/api/admin/score/sheets', {
    headers,
    data: {
      kind: 'exam',
      diet: diets.find((d) => d.current)!.code,
      course_header: code,
      paper_id: (await paper.json()).data.id,
      marker_one: idOf('Chinedu Eze'),
      marker_two: idOf('Funmilayo Adebayo'),
    },
  });
  expect(sheet.status(), await sheet.text()).toBe(200);
  return { code, ids, sheetId: (await sheet.json()).data.id as number, headers, three: idOf('Ibrahim Musa') };
}

async function openGrid(page: Page, code: string, grid: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Score Entry' }).click();
  await page.getByRole('link', { name: `${grid} of ${code} Paper I` }).click();
  await expect(page.getByRole('table', { name: `${grid} marks` })).toBeVisible();
}

/** Saves a row through the API, as marks from another device would be. */
async function saveRow(
  request: APIRequestContext,
  token: string,
  sheetId: number,
  grid: string,
  candidate: number,
  marks: string[],
) {
  const saved = await request.post(`/api/admin/score/sheets/${sheetId}/grids/${grid}/rows/${candidate}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { q1: marks[0], q2: marks[1], q3: marks[2], q4: marks[3], q5: marks[4], version: 0 },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

test('an empty row is not called saved, and the third marker’s table shows the final mark once saved', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { code, ids, sheetId, headers, three } = await setUp(request);

  // Marker one's grid, nothing entered: no row says 'Saved'.
  await signIn(page, 'marker1@example.org');
  await openGrid(page, code, 'Score marker one');
  const rows = page.locator('[data-testid^="grid-row-"]');
  await expect(rows).toHaveCount(3);
  for (let i = 0; i < 3; i += 1) {
    await expect(rows.nth(i)).toContainText('Not entered');
    await expect(rows.nth(i)).not.toContainText('Saved');
  }
  // The first row's marks typed and the row left: that row alone is saved.
  await page.getByRole('textbox', { name: /^Q1: / }).first().focus();
  for (const mark of FIVE('10')) {
    await page.keyboard.type(mark);
    await page.keyboard.press('Tab');
  }
  await page.keyboard.press('Tab');
  await expect(page.getByText('All marks saved')).toBeVisible();
  const first = page.getByTestId(`grid-row-${ids[0]}`);
  await expect(first).toContainText('Saved');
  await expect(page.getByTestId(`grid-row-${ids[1]}`)).toContainText('Not entered');

  // The rest through the API: marker two 5 apart on the second script's Q1; both submit.
  const one = await apiSignIn(request, 'marker1@example.org');
  const two = await apiSignIn(request, 'marker2@example.org');
  for (const id of ids.slice(1)) await saveRow(request, one, sheetId, 'one', id, FIVE('10'));
  for (const id of ids) await saveRow(request, two, sheetId, 'two', id, FIVE(id === ids[1] ? '15' : '10'));
  for (const [grid, token] of [
    ['one', one],
    ['two', two],
  ] as const) {
    const submitted = await request.post(`/api/admin/score/sheets/${sheetId}/grids/${grid}/submit`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(submitted.status(), await submitted.text()).toBe(200);
  }
  const named = await request.post(`/api/admin/score/sheets/${sheetId}/marker-three`, {
    headers,
    data: { marker_three: three },
  });
  expect(named.status(), await named.text()).toBe(200);

  // The third marker marks the flagged script: its row in the table shows their mark and the final one.
  const third = await (await browser.newContext()).newPage();
  await signIn(third, 'marker3@example.org');
  await openGrid(third, code, 'Third marker');
  const table = third.getByRole('region', { name: 'Scripts out of tolerance' });
  await expect(table).not.toContainText('(docs:');
  const flagged = table.getByTestId(`flagged-${ids[1]}`);
  await expect(flagged.getByRole('cell').last()).toHaveText('Waiting');
  await expect(third.getByTestId(`grid-row-${ids[1]}`)).toContainText('Not entered');
  await third.getByRole('textbox', { name: /^Q1: / }).first().focus();
  for (const mark of FIVE('11')) {
    await third.keyboard.type(mark);
    await third.keyboard.press('Tab');
  }
  await third.keyboard.press('Tab');
  await expect(third.getByTestId(`grid-row-${ids[1]}`)).toContainText('Saved');
  // 51 is nearer marker one's 50 than marker two's 55: the final mark is (50 + 51) / 2 = 50.5.
  await expect(flagged.getByRole('cell').nth(2)).toHaveText('11 + 10 + 10 + 10 + 10 = 51');
  await expect(flagged.getByRole('cell').last()).toHaveText('50.5');
});

test('marks from paper: a CSV is checked row by row, its good rows imported, and the grid shows them', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { code, ids, headers } = await setUp(request);
  const indexOf = async (id: number) =>
    (
      (await (await request.get(`/api/admin/candidates/${id}`, { headers })).json()).data as {
        candidate_index: string;
      }
    ).candidate_index;
  const [first, second] = [await indexOf(ids[0]), await indexOf(ids[1])];
  const csv = [
    'candidate_index,q1,q2,q3,q4,q5,absent',
    `${first},10,11,12,13,14,`,
    `${second},,,,,,yes`,
    'WHB/99/Z1/999999,10,10,10,10,10,',
  ].join('\n');

  await signIn(page, 'marker1@example.org');
  await openGrid(page, code, 'Score marker one');
  const paper = page.getByRole('region', { name: 'Marks from paper' });
  const importGood = paper.getByRole('button', { name: 'Import the good rows' });
  await expect(importGood).toBeDisabled();
  await paper
    .getByLabel('Marks CSV')
    .setInputFiles({ name: 'marks.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await paper.getByRole('button', { name: 'Check the file' }).click();
  // The dry run's report: the unknown index number named by its line in the file; nothing saved yet.
  const report = paper.getByRole('status').first();
  await expect(report).toContainText('2 rows are ready; 1 row has problems.');
  await expect(report).toContainText('Row 4 (WHB/99/Z1/999999)');
  await expect(report).toContainText('No candidate with this index number is on this sheet.');
  await expect(page.getByTestId(`grid-row-${ids[0]}`)).toContainText('Not entered');

  await importGood.click();
  await expect(report).toContainText('2 rows saved');
  await expect(importGood).toBeDisabled();
  await expect(page.getByTestId(`grid-row-${ids[0]}`)).toContainText('Saved');
  await expect(page.getByTestId(`grid-row-${ids[1]}`)).toContainText('Saved');
});
