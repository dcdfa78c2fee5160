import type { CourseStatus, CourseStatusField } from '../../contract/courses';
import { COURSE_ENDPOINTS as E } from '../../contract/courses.endpoints';
import type { FormValues } from '../../machines/formDialog.machine';
import { send } from './send';

/** The course headers page's I/O: the dialog's save and each row's status saves. */

/**
 * Creates (no `id` in the values) or edits a course header. The contract's validator runs first (in
 * `send`), so a mistake is shown without a round trip; the server runs the same one again.
 */
export async function saveCourseHeader(values: FormValues): Promise<{ message?: string }> {
  const body = { code: values.code, title: values.title };
  const id = Number(values.id);
  const { message } = id ? await send(E.update, { params: { id }, body }) : await send(E.create, { body });
  return { message };
}

/** One status of one row; resolves with the value the server now holds. */
export async function saveCourseStatus(input: {
  id: number | string;
  field: string;
  value: string;
}): Promise<{ value: string; message?: string }> {
  const field = input.field as CourseStatusField;
  const params = { id: input.id };
  const body = { [field]: input.value as CourseStatus };
  const { data, message } = await send(
    field === 'indexing_status' ? E.indexingStatus : E.registrationStatus,
    { params, body },
  );
  return { value: data[field], message };
}
