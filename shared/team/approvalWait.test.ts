import { describe, expect, it } from 'vitest';
import { waitsForApprover } from './approvalWait';

describe('waitsForApprover: the team database’s rule, read before submitting', () => {
  const usd = [{ currencyCode: 'USD', amount: 10_000 }];
  it('always holds, never lets through', () => {
    expect(waitsForApprover({ approval: 'always', thresholds: {} }, usd)).toBe(true);
    expect(waitsForApprover({ approval: 'never', thresholds: {} }, usd)).toBe(false);
  });
  it('above: only a total above its currency’s amount, or a currency without one', () => {
    const rule = { approval: 'above' as const, thresholds: { USD: 10_000 } };
    expect(waitsForApprover(rule, usd)).toBe(false);
    expect(waitsForApprover(rule, [{ currencyCode: 'USD', amount: 10_001 }])).toBe(true);
    expect(waitsForApprover(rule, [...usd, { currencyCode: 'EUR', amount: 1 }])).toBe(true);
  });
});
