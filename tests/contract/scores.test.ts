import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RESULT_RULES,
  agreement,
  finalMark,
  formatMark,
  gradeOf,
  inCourseTotal,
  markProblem,
  parseMark,
  thirdMarkerDecides,
  totalOf,
  type PaperRules,
} from '../../contract/scores';
import { parseGradeBands } from '../../contract/scores.validators';

/** The rules of double marking and results at their edges (docs/decisions.md "Scores and results"). */

// Five questions of 20 marks; markers may differ by 2 on a question and by 5 on the total.
const RULES: PaperRules = { q_max: [200, 200, 200, 200, 200], tolerance_question: 20, tolerance_total: 50 };
const script = (...marks: number[]) => ({ marks, absent: false });
const ABSENT = { marks: [null, null, null, null, null], absent: true };

describe('marks as typed', () => {
  it('reads whole and half marks into tenths, and nothing else', () => {
    expect(parseMark('12')).toBe(120);
    expect(parseMark('12.5')).toBe(125);
    expect(parseMark('.5')).toBe(5);
    expect(parseMark('12.')).toBe(120);
    expect(parseMark(' 7 ')).toBe(70);
    expect(parseMark('')).toBeNull();
    for (const bad of ['-1', '1e2', '12,5', '12.55', '1234', 'abc', '+3', '.'])
      expect(parseMark(bad)).toBeUndefined();
  });

  it('writes tenths back as a marker would type them', () => {
    expect(formatMark(125)).toBe('12.5');
    expect(formatMark(120)).toBe('12');
    expect(formatMark(0)).toBe('0');
    expect(formatMark(null)).toBe('');
  });

  it("checks a mark against its question's maximum, at the maximum and just above it", () => {
    expect(markProblem('20', 200)).toBeNull();
    expect(markProblem('20.1', 200)).toBe('At most 20 for this question.');
    expect(markProblem('x', 200)).toBe('Type a mark such as 12 or 12.5.');
    expect(markProblem('', 200)).toBeNull();
  });
});

describe('agreement of marker one and marker two', () => {
  it('is incomplete until both have marked every question worth something', () => {
    expect(agreement(RULES, null, script(1, 1, 1, 1, 1)).kind).toBe('incomplete');
    expect(
      agreement(RULES, { marks: [10, null, 10, 10, 10], absent: false }, script(1, 1, 1, 1, 1)).kind,
    ).toBe('incomplete');
    // A question worth nothing needs no mark.
    const four = { ...RULES, q_max: [200, 200, 200, 200, 0] };
    expect(totalOf(four, { marks: [10, 10, 10, 10, null], absent: false })).toBe(40);
  });

  it('agrees at exactly the tolerance, and takes the mean of the totals, a half tenth up', () => {
    // q1 differs by 2.0 (the tolerance), totals by 2.0.
    const result = agreement(RULES, script(100, 100, 100, 100, 100), script(120, 100, 100, 100, 100));
    expect(result).toEqual({ kind: 'agreed', total: 510 });
    // Totals 500 and 505: the mean 502.5 tenths goes up to 503.
    expect(agreement(RULES, script(100, 100, 100, 100, 100), script(105, 100, 100, 100, 100))).toEqual({
      kind: 'agreed',
      total: 503,
    });
  });

  it('flags a question a tenth past its tolerance', () => {
    expect(agreement(RULES, script(100, 100, 100, 100, 100), script(121, 100, 100, 100, 100))).toEqual({
      kind: 'flagged',
      why: 'question',
    });
  });

  it('flags totals a tenth past the total tolerance though every question is within its own', () => {
    // Each question 1.0 apart (within 2.0): totals 5.0 apart is within; 5.1 is not.
    expect(agreement(RULES, script(100, 100, 100, 100, 100), script(110, 110, 110, 110, 110)).kind).toBe(
      'agreed',
    );
    expect(agreement(RULES, script(100, 100, 100, 100, 100), script(110, 110, 110, 110, 111))).toEqual({
      kind: 'flagged',
      why: 'total',
    });
  });

  it('is absent when both say so, and flagged when only one does', () => {
    expect(agreement(RULES, ABSENT, ABSENT)).toEqual({ kind: 'absent' });
    expect(agreement(RULES, ABSENT, script(1, 1, 1, 1, 1))).toEqual({ kind: 'flagged', why: 'absence' });
  });
});

describe('the third marker decides a flagged script', () => {
  const one = script(100, 100, 100, 100, 100); // 500
  const two = script(150, 150, 150, 150, 150); // 750

  it('with the mean of the third mark and the nearer first mark', () => {
    // 550 is nearer 500: (500 + 550) / 2 = 525.
    expect(thirdMarkerDecides(RULES, one, two, script(110, 110, 110, 110, 110))).toEqual({
      kind: 'agreed',
      total: 525,
    });
    // 700 is nearer 750: (750 + 700) / 2 = 725.
    expect(thirdMarkerDecides(RULES, one, two, script(140, 140, 140, 140, 140))).toEqual({
      kind: 'agreed',
      total: 725,
    });
  });

  it('takes the higher first mark when the third is exactly between them', () => {
    // 625 is 125 from each: the higher (750) counts: (750 + 625) / 2 = 687.5 → 688.
    expect(thirdMarkerDecides(RULES, one, two, script(125, 125, 125, 125, 125))).toEqual({
      kind: 'agreed',
      total: 688,
    });
  });

  it('waits for the third mark, takes an absent third as absent, and an absent first mark as no mark', () => {
    expect(thirdMarkerDecides(RULES, one, two, null).kind).toBe('flagged');
    expect(thirdMarkerDecides(RULES, one, two, ABSENT)).toEqual({ kind: 'absent' });
    // Marker one absent, marker two 750, third 700: the nearer is 750.
    expect(thirdMarkerDecides(RULES, ABSENT, two, script(140, 140, 140, 140, 140))).toEqual({
      kind: 'agreed',
      total: 725,
    });
  });
});

describe('results', () => {
  it('weights the in-course total as the course header says, a half tenth up', () => {
    // 30% in-course: 0.7 x 64.3 + 0.3 x 71 = 45.01 + 21.3 = 66.31 → 663.1 tenths → 664.
    expect(finalMark(DEFAULT_RESULT_RULES, 643, 710)).toBe(664);
    // No in-course sheet: the exam alone.
    expect(finalMark(DEFAULT_RESULT_RULES, 643, null)).toBe(643);
  });

  it('grades at the edges of the bands', () => {
    expect(gradeOf(DEFAULT_RESULT_RULES, 700)).toBe('A');
    expect(gradeOf(DEFAULT_RESULT_RULES, 699)).toBe('B');
    expect(gradeOf(DEFAULT_RESULT_RULES, 500)).toBe('C');
    expect(gradeOf(DEFAULT_RESULT_RULES, 499)).toBe('F');
    expect(gradeOf(DEFAULT_RESULT_RULES, 0)).toBe('F');
  });

  it('takes the in-course total as the mean of the semesters entered', () => {
    expect(inCourseTotal([600, 700, null])).toBe(650);
    expect(inCourseTotal([600, 700, 705])).toBe(669);
    expect(inCourseTotal([null, null, null])).toBeNull();
  });

  it('reads grade bands highest first, the last from 0', () => {
    expect(parseGradeBands('A 70, B 60, C 50, F 0')).toEqual(DEFAULT_RESULT_RULES.grade_bands);
    expect(parseGradeBands('Distinction 75\nCredit 60\nPass 50\nFail 0')).toBeNull(); // names too long
    expect(parseGradeBands('A 70, B 60')).toBeNull(); // no band from 0
    expect(parseGradeBands('A 60, B 70, F 0')).toBeNull(); // not highest first
  });
});
