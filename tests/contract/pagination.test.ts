import { describe, expect, it } from 'vitest';
import { EXACT_TOTAL_LIMIT, totalLabel } from '../../contract/pagination';

/** How a list's total reads under its pages (src/ui/Pagination.tsx). */
describe('totalLabel', () => {
  it('says an exact total as it is, with thousands separated', () => {
    expect(totalLabel({ total: 0, total_exact: true })).toBe('0');
    expect(totalLabel({ total: 25, total_exact: true })).toBe('25');
    expect(totalLabel({ total: 1000, total_exact: true })).toBe('1,000');
  });

  it('says an estimate to two significant figures, as "about"', () => {
    expect(totalLabel({ total: 17_775, total_exact: false })).toBe('about 18,000');
    expect(totalLabel({ total: 1_000_000, total_exact: false })).toBe('about 1,000,000');
    expect(totalLabel({ total: 121_200, total_exact: false })).toBe('about 120,000');
    expect(totalLabel({ total: 1_450, total_exact: false })).toBe('about 1,500');
  });

  it('rounds up where rounding would say fewer than the rows already shown', () => {
    // Page 51 of 20 rows shows rows 1,001-1,020; the total is raised to 1,021 at least.
    expect(totalLabel({ total: 1_021, total_exact: false }, 1_020)).toBe('about 1,100');
    expect(totalLabel({ total: 121_200, total_exact: false }, 121_120)).toBe('about 130,000');
    expect(totalLabel({ total: 121_200, total_exact: false }, 40)).toBe('about 120,000');
  });

  it('says "more than" the limit when what was counted is all it knows', () => {
    expect(totalLabel({ total: EXACT_TOTAL_LIMIT + 1, total_exact: false })).toBe('more than 1,000');
  });
});
