import { describe, expect, it } from 'vitest';
import {
  ratio,
  regressionMessage,
  regressions,
  wrongWay,
  type Better,
  type Figures,
} from '../scripts/benchRecord';

/**
 * The bench's regression check (scripts/benchRecord.ts, issue 28 item 7): a figure that moved more than
 * 20 % the wrong way against the last committed run is reported; the way that is wrong depends on the
 * figure's direction.
 */

const figure = (value: number, better: Better, unit = 'ms') => ({
  value,
  unit,
  better,
  measuredAt: '2026-11-26T00:00:00.000Z',
  load: 1,
});

describe('the bench regression check', () => {
  it('measures the move the wrong way by the direction that is better', () => {
    expect(wrongWay(100, 125, 'lower')).toBeCloseTo(0.25);
    expect(wrongWay(100, 75, 'lower')).toBe(0);
    expect(wrongWay(100, 75, 'higher')).toBeCloseTo(0.25);
    expect(wrongWay(100, 125, 'higher')).toBe(0);
    expect(wrongWay(-1, 5, 'lower')).toBeNull();
    expect(wrongWay(0, 5, 'higher')).toBeNull();
  });

  it('reports a lower-is-better figure that left 0 (errors that appeared), and not one that stayed there', () => {
    expect(wrongWay(0, 0, 'lower')).toBe(0);
    const previous: Figures = {
      'a.errors': figure(0, 'lower', 'errors'),
      'b.errors': figure(0, 'lower', 'errors'),
    };
    const current: Figures = {
      'a.errors': figure(3, 'lower', 'errors'),
      'b.errors': figure(0, 'lower', 'errors'),
    };
    const found = regressions(previous, current);
    expect(found.map((r) => r.key)).toEqual(['a.errors']);
    expect(regressionMessage(found[0])).toBe(
      'REGRESSION: a.errors moved off 0 the wrong way (was 0 errors, now 3 errors)',
    );
  });

  it('turns a pair of times into a ratio to three decimals, and none over an anchor of 0', () => {
    expect(ratio(7.6, 1.4)).toBe(5.429);
    expect(ratio(1, 0)).toBeNaN();
  });

  it('reports a lower-is-better figure that grew more than 20 %, and not one that shrank', () => {
    const previous: Figures = { 'a.time': figure(100, 'lower'), 'b.time': figure(100, 'lower') };
    const current: Figures = { 'a.time': figure(123, 'lower'), 'b.time': figure(50, 'lower') };
    expect(regressions(previous, current)).toEqual([
      { key: 'a.time', was: 100, now: 123, unit: 'ms', worse: expect.closeTo(0.23, 5) },
    ]);
  });

  it('reports a higher-is-better figure that fell more than 20 %, and not one that rose', () => {
    const previous: Figures = {
      'a.score': figure(90, 'higher', 'score'),
      'b.score': figure(50, 'higher', 'score'),
    };
    const current: Figures = {
      'a.score': figure(60, 'higher', 'score'),
      'b.score': figure(100, 'higher', 'score'),
    };
    const found = regressions(previous, current);
    expect(found.map((r) => r.key)).toEqual(['a.score']);
    expect(regressionMessage(found[0])).toBe(
      'REGRESSION: a.score moved 33 % the wrong way (was 90 score, now 60 score)',
    );
  });

  it('leaves alone a move within 20 %, a new figure, and a figure whose direction or unit changed', () => {
    const previous: Figures = {
      within: figure(100, 'lower'),
      flipped: figure(100, 'lower'),
      rescaled: figure(1, 'lower', 's'),
    };
    const current: Figures = {
      within: figure(120, 'lower'),
      flipped: figure(10, 'higher'),
      rescaled: figure(1000, 'lower', 'ms'),
      fresh: figure(5, 'lower'),
    };
    expect(regressions(previous, current)).toEqual([]);
  });
});
