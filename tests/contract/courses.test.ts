import { errors } from '@vinejs/vine';
import { describe, expect, it } from 'vitest';
import { courseHeaderRules, requiredUploadOf } from '../../contract/candidates';
import { candidateValidator, normaliseCandidateInput } from '../../contract/candidates.validators';
import { SPECIAL_COURSE_HEADERS } from '../../contract/constants';
import { courseHeaderValidator, indexingStatusValidator } from '../../contract/courses.validators';

/**
 * The course header form's validator, and the special rules the course headers page shows: they are
 * the candidate validator's own, so for every course header the page says exactly what the form does.
 */

async function errorsOf(validator: { validate(data: unknown): Promise<unknown> }, values: unknown) {
  try {
    await validator.validate(values);
    return {};
  } catch (error) {
    if (!(error instanceof errors.E_VALIDATION_ERROR)) throw error;
    const fields: Record<string, string[]> = {};
    for (const item of error.messages as { field: string; message: string }[]) {
      (fields[item.field] ??= []).push(item.message);
    }
    return fields;
  }
}

describe('the course header validator', () => {
  it('trims, and keeps the code in capitals', async () => {
    expect(await courseHeaderValidator.validate({ code: ' b12 ', title: ' Dental Nursing ' })).toEqual({
      code: 'B12',
      title: 'Dental Nursing',
    });
  });

  it.each([
    [{}, { code: ['Code is required'], title: ['Title is required'] }],
    [
      { code: ' ', title: '' },
      { code: ['Code is required'], title: ['Title is required'] },
    ],
    [
      { code: 'AB', title: 'x' },
      { code: ['The code is one capital letter and one or two digits, like A1 or B5'] },
    ],
    [
      { code: 'A100', title: 'x' },
      { code: ['The code is one capital letter and one or two digits, like A1 or B5'] },
    ],
    [{ code: 'A1', title: 'x'.repeat(201) }, { title: ['This is too long'] }],
  ])('%j', async (values, expected) => {
    expect(await errorsOf(courseHeaderValidator, values)).toEqual(expected);
  });

  it('a status is open or closed', async () => {
    expect(await errorsOf(indexingStatusValidator, { indexing_status: 'closed' })).toEqual({});
    expect(await errorsOf(indexingStatusValidator, { indexing_status: 'paused' })).toEqual({
      indexing_status: ['Choose open or closed'],
    });
  });
});

describe('the special rules shown for a course header', () => {
  it('A4, A5 and B5 need no prior certificate; A4 needs the food hygiene certificate, B5 the ND', () => {
    expect(courseHeaderRules('A4')).toEqual([
      'No prior certificate needed (certificate, exam year, exam number and exam month are optional)',
      'Food hygiene certificate upload required',
    ]);
    expect(courseHeaderRules('A5')).toEqual([
      'No prior certificate needed (certificate, exam year, exam number and exam month are optional)',
    ]);
    expect(courseHeaderRules('B5')).toEqual([
      'No prior certificate needed (certificate, exam year, exam number and exam month are optional)',
      'ND certificate upload required',
    ]);
    expect(courseHeaderRules('A1')).toEqual([]);
    expect(requiredUploadOf('toString')).toBeNull();
  });

  /** What the candidate validator asks of a form that gives only a photo, for this course header. */
  const asked = async (courseHeader: string) => {
    const values = normaliseCandidateInput({
      course_header: courseHeader,
      photo: new File([new Uint8Array(8)], 'p.png'),
    });
    return Object.keys(await errorsOf(candidateValidator, values));
  };

  it.each([...SPECIAL_COURSE_HEADERS, 'A1', 'B2', 'C12'])(
    '%s: the page says what the validator does',
    async (code) => {
      const fields = await asked(code);
      const rules = courseHeaderRules(code);
      const prior = ['certificate_evaluated', 'year_of_certificate_evaluated', 'exam_number_1', 'exam_month'];
      const noPrior = rules.some((rule) => rule.startsWith('No prior certificate needed'));
      for (const field of prior) expect(fields.includes(field), field).toBe(!noPrior);
      for (const upload of ['fn_image_upload', 'nd_certificate_upload']) {
        expect(fields.includes(upload), upload).toBe(requiredUploadOf(code) === upload);
      }
      expect(rules.some((rule) => rule.endsWith('upload required'))).toBe(requiredUploadOf(code) !== null);
    },
  );
});
