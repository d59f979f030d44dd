import { describe, expect, it } from 'vitest';
import { withServiceRefusals } from './serviceRefusals';

describe('withServiceRefusals', () => {
  const counts = { rows: 39, valid: 39, invalid: 0, warnings: 7 };
  const totals = [
    { currencyCode: 'USD', count: 38, amount: 860_726 },
    { currencyCode: 'EUR', count: 1, amount: 2_500 },
  ];

  it('moves the rows the service refused from valid to invalid, and out of the valid totals', () => {
    expect(withServiceRefusals(counts, totals, [{ currencyCode: 'USD', amount: 2_500 }])).toEqual({
      counts: { rows: 39, valid: 38, invalid: 1, warnings: 7 },
      totals: [
        { currencyCode: 'USD', count: 37, amount: 858_226 },
        { currencyCode: 'EUR', count: 1, amount: 2_500 },
      ],
    });
  });

  it('drops a currency left with no valid donation', () => {
    expect(withServiceRefusals(counts, totals, [{ currencyCode: 'EUR', amount: 2_500 }]).totals).toEqual([
      { currencyCode: 'USD', count: 38, amount: 860_726 },
    ]);
  });

  it('leaves the figures as they are when no refusal is left on a cell', () => {
    const same = withServiceRefusals(counts, totals, []);
    expect(same.counts).toBe(counts);
    expect(same.totals).toBe(totals);
  });

  it('never moves more rows than are valid', () => {
    expect(
      withServiceRefusals({ rows: 3, valid: 1, invalid: 2, warnings: 0 }, totals, [
        { currencyCode: 'USD', amount: 1 },
        { currencyCode: 'USD', amount: 1 },
      ]).counts,
    ).toEqual({ rows: 3, valid: 0, invalid: 3, warnings: 0 });
  });
});
