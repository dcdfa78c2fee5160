import { describe, expect, it } from 'vitest';
import { chartValueFormat } from '../../contract/documents';

describe('a chart writes its values one way', () => {
  it('gives every bar one decimal when any bar has a fraction, so 66 stands as 66.0 beside 64.4', () => {
    const format = chartValueFormat([{ value: 66 }, { value: 64.44 }, { value: 0 }]);
    expect([66, 64.44, 0].map(format)).toEqual(['66.0', '64.4', '0.0']);
  });

  it('writes whole numbers without decimals, with thousands separated', () => {
    const format = chartValueFormat([{ value: 1200 }, { value: 7 }]);
    expect([1200, 7].map(format)).toEqual(['1,200', '7']);
  });
});
