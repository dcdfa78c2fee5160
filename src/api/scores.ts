import { fromPromise } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import {
  SCORE_PATHS,
  type CourseScoring,
  type Grid,
  type GridPage,
  type ImportReport,
  type InCourseRow,
  type MarkRow,
  type Publication,
  type PublicationPreview,
  type ReconciliationRow,
  type SheetRow,
  type UserRef,
} from '../../contract/scores';
import {
  holdValidator,
  paperValidator,
  resultRulesValidator,
  sheetValidator,
  withdrawValidator,
} from '../../contract/scores.validators';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import type { SaveRowInput, SavedRow } from '../../machines/markRow.machine';
import { fieldsOf, valuesOf } from '../../machines/scoreSheet.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/** The score area's I/O: papers and rules, sheets, a grid's rows, results and holds. */

const sheetPath = (id: number, tail = '') => `${SCORE_PATHS.sheets}/${id}${tail}`;

export const loadSheets = async (diet: string) =>
  (
    await call<{ sheets: SheetRow[]; markers: UserRef[] }>(
      `${SCORE_PATHS.sheets}?diet=${encodeURIComponent(diet)}`,
    )
  ).data!;

export const loadCourseScoring = async (code: string) =>
  (await call<CourseScoring>(SCORE_PATHS.courseScoring.replace(':code', code))).data!;

export const loadReconciliation = async (sheetId: number) =>
  (await call<ReconciliationRow[]>(sheetPath(sheetId, '/reconciliation'))).data!;

export const loadPublications = async (diet: string) =>
  (await call<Publication[]>(`${SCORE_PATHS.publications}?diet=${encodeURIComponent(diet)}`)).data!;

export async function saveSheet(values: FormValues): Promise<{ message?: string }> {
  const body = {
    kind: values.kind,
    diet: values.diet,
    course_header: values.course_header,
    ...(values.kind === 'exam' && { paper_id: Number(values.paper_id) || undefined }),
    ...(values.school && { school: values.school }),
    marker_one: Number(values.marker_one) || undefined,
    ...(values.kind === 'exam' && { marker_two: Number(values.marker_two) || undefined }),
  };
  await checkInBrowser(sheetValidator, body);
  return { message: messageOf(await call(SCORE_PATHS.sheets, { method: 'POST', body })) };
}

export async function savePaper(values: FormValues): Promise<{ message?: string }> {
  const body = {
    course_header: values.course_header,
    name: values.name,
    q1_max: values.q1_max,
    q2_max: values.q2_max,
    q3_max: values.q3_max,
    q4_max: values.q4_max,
    q5_max: values.q5_max,
    tolerance_question: values.tolerance_question,
    tolerance_total: values.tolerance_total,
  };
  await checkInBrowser(paperValidator, body);
  const id = Number(values.id);
  const path = id ? `${SCORE_PATHS.papers}/${id}` : SCORE_PATHS.papers;
  return { message: messageOf(await call(path, { method: 'POST', body })) };
}

export async function saveRules(values: FormValues): Promise<{ message?: string }> {
  const body = {
    in_course_weight: values.in_course_weight,
    pass_mark: values.pass_mark,
    grade_bands: values.grade_bands,
  };
  await checkInBrowser(resultRulesValidator, body);
  const path = SCORE_PATHS.rules.replace(':code', String(values.course_header));
  return { message: messageOf(await call(path, { method: 'POST', body })) };
}

export async function saveHold(values: FormValues): Promise<{ message?: string }> {
  const body = { diet: values.diet, candidate_index: values.candidate_index, reason: values.reason };
  await checkInBrowser(holdValidator, body);
  return { message: messageOf(await call(SCORE_PATHS.holds, { method: 'POST', body })) };
}

/** A sheet-level or results-level action: its sentence. */
async function act(path: string, body?: Record<string, unknown>) {
  const response = await call<SheetRow>(path, { method: 'POST', body });
  return { sheet: response.data!, message: messageOf(response) };
}

export const setMarkerThree = (sheetId: number, markerId: number) =>
  act(sheetPath(sheetId, '/marker-three'), { marker_three: markerId });

export const publicationAction = (action: 'compute' | 'publish', diet: string, course: string) =>
  call<Publication>(SCORE_PATHS[action], { method: 'POST', body: { diet, course_header: course } }).then(
    (response) => ({ message: messageOf(response) }),
  );

/** What compute, publish and withdraw would do: the numbers their questions say, the refusal, the changes. */
export const loadPublicationPreview = async (diet: string, course: string) =>
  (
    await call<PublicationPreview>(
      `${SCORE_PATHS.preview}?diet=${encodeURIComponent(diet)}&course_header=${encodeURIComponent(course)}`,
    )
  ).data!;

/** Withdraws a publication with its reason (the withdraw dialog's form). */
export async function withdrawResults(values: FormValues): Promise<{ message?: string }> {
  const body = { diet: values.diet, course_header: values.course_header, reason: values.reason };
  await checkInBrowser(withdrawValidator, body);
  return { message: messageOf(await call(SCORE_PATHS.withdraw, { method: 'POST', body })) };
}

/** The results list's row action: release the board's hold on a result. */
export const resultActions = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { hold } = input.payload as { hold: number };
  return { message: messageOf(await call(`${SCORE_PATHS.holds}/${hold}/release`, { method: 'POST' })) };
});

// The score sheet machine's actors.

export const loadGrid = fromPromise<
  GridPage<MarkRow | InCourseRow>,
  { sheetId: number; grid: Grid; page: number }
>(
  async ({ input }) =>
    (
      await call<GridPage<MarkRow | InCourseRow>>(
        sheetPath(input.sheetId, `/grids/${input.grid}?page=${input.page}`),
      )
    ).data!,
);

export const submitGrid = fromPromise<{ sheet: SheetRow; message?: string }, { sheetId: number; grid: Grid }>(
  ({ input }) => act(sheetPath(input.sheetId, `/grids/${input.grid}/submit`)),
);

export const lockSheet = fromPromise<{ sheet: SheetRow; message?: string }, { sheetId: number }>(
  ({ input }) => act(sheetPath(input.sheetId, '/lock')),
);

export const unlockSheet = fromPromise<
  { sheet: SheetRow; message?: string },
  { sheetId: number; reason: string }
>(({ input }) => act(sheetPath(input.sheetId, '/unlock'), { reason: input.reason }));

/** A row as the row actor keeps it, from the row the server answers. */
function savedOf(grid: Grid, row: MarkRow | InCourseRow): SavedRow {
  const { fields } = fieldsOf({ grid, rules: null } as GridPage<MarkRow>);
  return { values: valuesOf(row, fields), version: row.version };
}

/** The row actor's save: its values as the row's route takes them; a stale row's 409 carries theirs. */
export const saveRow = fromPromise<SavedRow, SaveRowInput>(async ({ input }) => {
  const body = {
    ...input.values,
    version: input.version,
    ...(input.reason && { reason: input.reason }),
  };
  try {
    const response = await call<MarkRow | InCourseRow>(
      sheetPath(input.sheetId, `/grids/${input.grid}/rows/${input.candidateId}`),
      { method: 'POST', body },
    );
    return savedOf(input.grid, response.data!);
  } catch (error) {
    const failure = error as ApiFailure & { data?: { current?: MarkRow | InCourseRow } };
    if (failure.status === 409 && failure.data?.current) {
      throw { ...failure, data: { current: savedOf(input.grid, failure.data.current) } };
    }
    throw error;
  }
});

/** A marks CSV checked (dry run) or imported into a grid; the answer's sentence with the report. */
export async function importMarks(sheetId: number, grid: Grid, form: FormData, dryRun: boolean) {
  form.set('dry_run', dryRun ? '1' : '0');
  const response = await call<ImportReport>(sheetPath(sheetId, `/grids/${grid}/import`), {
    method: 'POST',
    body: form,
  });
  return { report: response.data!, message: messageOf(response) };
}
