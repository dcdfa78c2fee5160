import { fromPromise } from 'xstate';
import type { ApiFailure } from '../../contract/envelope';
import type { Grid, GridPage, InCourseRow, MarkRow, SheetRow } from '../../contract/scores';
import { SCORE_ENDPOINTS as E } from '../../contract/scores.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import type { ListAction } from '../../machines/list.machine';
import type { SaveRowInput, SavedRow } from '../../machines/markRow.machine';
import { fieldsOf, valuesOf } from '../../machines/scoreSheet.machine';
import { send } from './send';

/** The score area's I/O: papers and rules, sheets, a grid's rows, results and holds. */

export const loadSheets = async (diet: string) => (await send(E.sheets, { query: { diet } })).data;

export const loadCourseScoring = async (code: string) =>
  (await send(E.courseScoring, { params: { code } })).data;

export const loadReconciliation = async (sheetId: number) =>
  (await send(E.reconciliation, { params: { id: sheetId } })).data;

export const loadPublications = async (diet: string) =>
  (await send(E.publications, { query: { diet } })).data;

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
  const { message } = await send(E.createSheet, { body });
  return { message };
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
  const id = Number(values.id);
  const { message } = id
    ? await send(E.updatePaper, { params: { id }, body })
    : await send(E.createPaper, { body });
  return { message };
}

export async function saveRules(values: FormValues): Promise<{ message?: string }> {
  const body = {
    in_course_weight: values.in_course_weight,
    pass_mark: values.pass_mark,
    grade_bands: values.grade_bands,
  };
  const { message } = await send(E.rules, { params: { code: String(values.course_header) }, body });
  return { message };
}

export async function saveHold(values: FormValues): Promise<{ message?: string }> {
  const body = { diet: values.diet, candidate_index: values.candidate_index, reason: values.reason };
  const { message } = await send(E.hold, { body });
  return { message };
}

/** A sheet-level action: the sheet as it now is, and its sentence. */
const sheetAnswer = ({ data, message }: { data: SheetRow; message?: string }) => ({ sheet: data, message });

export const setMarkerThree = async (sheetId: number, markerId: number) =>
  sheetAnswer(await send(E.markerThree, { params: { id: sheetId }, body: { marker_three: markerId } }));

export const publicationAction = async (action: 'compute' | 'publish', diet: string, course: string) => {
  const { message } = await send(E[action], { body: { diet, course_header: course } });
  return { message };
};

/** What compute, publish and withdraw would do: the numbers their questions say, the refusal, the changes. */
export const loadPublicationPreview = async (diet: string, course: string) =>
  (await send(E.preview, { query: { diet, course_header: course } })).data;

/** Withdraws a publication with its reason (the withdraw dialog's form). */
export async function withdrawResults(values: FormValues): Promise<{ message?: string }> {
  const body = { diet: values.diet, course_header: values.course_header, reason: values.reason };
  const { message } = await send(E.withdraw, { body });
  return { message };
}

/** The results list's row action: release the board's hold on a result. */
export const resultActions = fromPromise<{ message?: string }, ListAction>(async ({ input }) => {
  const { hold } = input.payload as { hold: number };
  const { message } = await send(E.releaseHold, { params: { id: hold } });
  return { message };
});

// The score sheet machine's actors.

export const loadGrid = fromPromise<
  GridPage<MarkRow | InCourseRow>,
  { sheetId: number; grid: Grid; page: number }
>(
  async ({ input }) =>
    (
      await send(E.grid, {
        params: { id: input.sheetId, grid: input.grid },
        // The query travels as text, and the contract checks it as text.
        query: { page: String(input.page) },
      })
    ).data,
);

export const submitGrid = fromPromise<{ sheet: SheetRow; message?: string }, { sheetId: number; grid: Grid }>(
  async ({ input }) => sheetAnswer(await send(E.submit, { params: { id: input.sheetId, grid: input.grid } })),
);

export const lockSheet = fromPromise<{ sheet: SheetRow; message?: string }, { sheetId: number }>(
  async ({ input }) => sheetAnswer(await send(E.lock, { params: { id: input.sheetId } })),
);

export const unlockSheet = fromPromise<
  { sheet: SheetRow; message?: string },
  { sheetId: number; reason: string }
>(async ({ input }) =>
  sheetAnswer(await send(E.unlock, { params: { id: input.sheetId }, body: { reason: input.reason } })),
);

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
  const params = { id: input.sheetId, candidate: input.candidateId };
  try {
    const { data } =
      input.grid === 'in-course'
        ? await send(E.inCourseRow, { params, body })
        : await send(E.markRow, { params: { ...params, grid: input.grid }, body });
    return savedOf(input.grid, data);
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
  const { data, message } = await send(E.importMarks, { params: { id: sheetId, grid }, body: form });
  return { report: data, message };
}
