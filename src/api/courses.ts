import {
  COURSE_PATHS,
  type CourseHeaderRow,
  type CourseStatus,
  type CourseStatusField,
} from '../../contract/courses';
import { courseHeaderValidator } from '../../contract/courses.validators';
import type { FormValues } from '../../machines/formDialog.machine';
import { call } from './client';
import { checkInBrowser, messageOf } from './listForms';

/** The course headers page's I/O: the dialog's save and each row's status saves. */

/**
 * Creates (no `id` in the values) or edits a course header. The contract's validator runs first, so a
 * mistake is shown without a round trip; the server runs the same one again.
 */
export async function saveCourseHeader(values: FormValues): Promise<{ message?: string }> {
  const body = { code: values.code, title: values.title };
  await checkInBrowser(courseHeaderValidator, body);
  const id = Number(values.id);
  const response = await call<CourseHeaderRow>(id ? COURSE_PATHS.one(id) : COURSE_PATHS.list, {
    method: 'POST',
    body,
  });
  return { message: messageOf(response) };
}

/** One status of one row; resolves with the value the server now holds. */
export async function saveCourseStatus(input: {
  id: number | string;
  field: string;
  value: string;
}): Promise<{ value: string; message?: string }> {
  const field = input.field as CourseStatusField;
  const response = await call<CourseHeaderRow>(COURSE_PATHS.status(Number(input.id), field), {
    method: 'POST',
    body: { [field]: input.value as CourseStatus },
  });
  return {
    value: response.data![field],
    message: messageOf(response),
  };
}
