import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../../../shared/mapping';
import { RowResults } from './rowResults';

const ok = (recipientId: string, amount: number, currencyCode = 'USD', warn = false): MappedRow => ({
  ok: true,
  donation: {
    destination: { recipientId },
    funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY', currencyCode, amount },
  },
  issues: warn ? [{ severity: 'warning', field: '', code: 'W', message: 'w' }] : [],
});
const bad: MappedRow = {
  ok: false,
  donation: { destination: {}, funds: { paymentType: 'DONATION_REPORT', source: 'COMPANY' } },
  issues: [{ severity: 'error', field: 'funds.amount', code: 'E', message: 'e' }],
};

describe('RowResults', () => {
  it('keeps counts, currency totals and largest recipients right through changes and removals', () => {
    const r = new RowResults();
    r.set(1, ok('840-1', 2500));
    r.set(2, ok('840-1', 1000));
    r.set(3, ok('840-2', 700, 'EUR', true));
    r.set(4, bad);
    expect(r.counts()).toEqual({ rows: 4, valid: 3, invalid: 1, warnings: 1 });
    expect(r.currencyTotals()).toEqual([
      { currencyCode: 'USD', count: 2, amount: 3500 },
      { currencyCode: 'EUR', count: 1, amount: 700 },
    ]);
    r.set(4, ok('840-2', 100, 'EUR'));
    r.set(2, bad);
    r.remove(3);
    expect(r.counts([4, 99])).toEqual({ rows: 3, valid: 2, invalid: 1, warnings: 1 });
    expect(r.currencyTotals()).toEqual([
      { currencyCode: 'USD', count: 1, amount: 2500 },
      { currencyCode: 'EUR', count: 1, amount: 100 },
    ]);
    expect(r.largestRecipients().map((x) => [x.recipientId, x.amount])).toEqual([
      ['840-1', 2500],
      ['840-2', 100],
    ]);
  });
});

describe('RowResults.hasWarning', () => {
  it('knows a row with a warning without working out its issues, and forgets it once fixed', () => {
    const r = new RowResults();
    r.set(1, ok('840-1', 100, 'USD', true));
    r.set(2, ok('840-1', 100));
    expect([r.hasWarning(1), r.hasWarning(2)]).toEqual([true, false]);
    r.set(1, ok('840-1', 100));
    expect(r.hasWarning(1)).toBe(false);
  });
});

describe('RowResults.largestRecipients', () => {
  it('keeps the top recipients by amount without sorting everything', () => {
    const r = new RowResults();
    [5, 1, 9, 3, 7, 2, 8].forEach((amount, i) => r.set(i, ok(`840-${i}`, amount * 100)));
    expect(r.largestRecipients(3).map((x) => x.amount)).toEqual([900, 800, 700]);
    expect(r.largestRecipients(10)).toHaveLength(7);
  });
});
