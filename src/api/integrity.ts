import { INTEGRITY_ENDPOINTS as E } from '../../contract/integrity.endpoints';
import type { DuplicateReport } from '../../contract/integrity';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The integrity reports page's I/O: a page of the report, and its two dialogs' submits. */

export const loadDuplicates = async (page: number): Promise<DuplicateReport> =>
  (await send(E.duplicates, { query: { page } })).data;

/** 'Not the same person' for the pair in the form's hidden `id`. */
export async function markNotSame(values: FormValues): Promise<{ message?: string }> {
  const id = typeof values.id === 'string' ? values.id : '';
  const { message } = await send(E.notSame, { params: { id } });
  return { message };
}

/** Every candidate checked again, in the background. */
export async function scanEveryone(): Promise<{ message?: string }> {
  const { message } = await send(E.scan);
  return { message };
}
