import { describe, expect, it } from 'vitest';
import { DOCUMENTS, type DocumentOptions } from '../contract/documents';
import {
  choose,
  documentQuery,
  initialValues,
  missingParams,
  papersFor,
  paramsToChoose,
  queryFromSearch,
} from '../src/pages/documents/choice';

/** Print Documents' choice of parameters: which are asked, which are missing, what is sent. */

const options: DocumentOptions = {
  diets: [
    { code: 'NOV-2025', name: 'November 2025', current: false },
    { code: 'MAY-2026', name: 'May 2026', current: true },
  ],
  schools: [{ code: 'SHT-IB', name: 'School of Health Technology, Ibadan' }],
  courseHeaders: [
    { code: 'A1', name: 'Community Health' },
    { code: 'B1', name: 'Environmental Health' },
  ],
  papers: [
    { id: 11, courseHeader: 'A1', name: 'A1 Paper I' },
    { id: 12, courseHeader: 'A1', name: 'A1 Paper II' },
    { id: 21, courseHeader: 'B1', name: 'B1 Paper I' },
  ],
};

describe('the parameters a document asks for', () => {
  it('asks the board admin for every parameter of the document, in the registry’s order', () => {
    expect(paramsToChoose(DOCUMENTS['zonal-leaders-marksheet'], 'admin')).toEqual([
      { param: 'diet', required: true },
      { param: 'school', required: false },
      { param: 'course_header', required: true },
      { param: 'paper', required: true },
    ]);
  });

  it('never asks a school admin for the school: the server sets it to their own', () => {
    const asked = paramsToChoose(DOCUMENTS['practical-marksheet'], 'school_admin').map((p) => p.param);
    expect(asked).toEqual(['diet', 'course_header']);
    // A school admin's school is never missing, though the document requires one.
    expect(missingParams(DOCUMENTS.doc, {}, 'school_admin')).toEqual([]);
    expect(missingParams(DOCUMENTS.doc, {}, 'admin')).toEqual(['school']);
  });

  it('names the required parameters not yet chosen, blanks counting as not chosen', () => {
    const sheet = DOCUMENTS['zonal-leaders-marksheet'];
    expect(missingParams(sheet, {}, 'admin')).toEqual(['diet', 'course_header', 'paper']);
    expect(missingParams(sheet, { diet: 'MAY-2026', course_header: '  ' }, 'admin')).toEqual([
      'course_header',
      'paper',
    ]);
    expect(missingParams(sheet, { diet: 'MAY-2026', course_header: 'A1', paper: '11' }, 'admin')).toEqual([]);
    // A document with only optional parameters is ready at once.
    expect(missingParams(DOCUMENTS['indexed-candidate-list'], {}, 'admin')).toEqual([]);
    expect(missingParams(DOCUMENTS['course-index-stats'], {}, 'admin')).toEqual([]);
  });
});

describe('choosing values', () => {
  it('starts from the current diet and the first layout', () => {
    expect(initialValues(DOCUMENTS['candidate-list'], options)).toEqual({
      diet: 'MAY-2026',
      variant: 'table',
    });
    expect(initialValues(DOCUMENTS['candidate-info'], options)).toEqual({});
  });

  it('offers only the chosen course header’s papers, and forgets the paper when the course header changes', () => {
    expect(papersFor(options, undefined)).toEqual([]);
    expect(papersFor(options, 'A1').map((p) => p.id)).toEqual([11, 12]);
    const withPaper = { diet: 'MAY-2026', course_header: 'A1', paper: '12' };
    expect(choose(withPaper, 'course_header', 'A1')).toEqual(withPaper);
    expect(choose(withPaper, 'course_header', 'B1')).toEqual({ diet: 'MAY-2026', course_header: 'B1' });
    expect(choose(withPaper, 'diet', 'NOV-2025')).toEqual({ ...withPaper, diet: 'NOV-2025' });
  });
});

describe('the query a document is asked with', () => {
  it('sends the chosen values of the parameters the document takes, trimmed, and a known layout', () => {
    const values = {
      diet: 'MAY-2026',
      school: 'SHT-IB',
      course_header: ' A1 ',
      paper: '11',
      candidate: '',
      variant: 'album',
    };
    expect(documentQuery(DOCUMENTS['candidate-list'], values, 'admin')).toEqual({
      diet: 'MAY-2026',
      school: 'SHT-IB',
      course_header: 'A1',
      variant: 'album',
    });
    // A school admin's school is not sent (the server sets it); a layout the document lacks is not sent.
    expect(documentQuery(DOCUMENTS['fail-pass-stats'], values, 'school_admin')).toEqual({
      diet: 'MAY-2026',
      course_header: 'A1',
    });
    expect(documentQuery(DOCUMENTS['candidate-list'], { variant: 'poster' }, 'admin')).toEqual({});
  });

  it('reads a print page’s query string: the document’s parameters, not the page’s own', () => {
    expect(queryFromSearch('diet=MAY-2026&school=SHT-IB&variant=album&print=1&x=y')).toEqual({
      diet: 'MAY-2026',
      school: 'SHT-IB',
      variant: 'album',
    });
    expect(queryFromSearch('')).toEqual({});
  });
});
