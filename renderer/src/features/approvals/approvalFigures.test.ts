import { describe, expect, it } from 'vitest';
import { changeFromMonthBefore, monthName } from './approvalFigures';

describe('changeFromMonthBefore', () => {
  it('compares each currency on its own, in money and per cent', () => {
    const changes = changeFromMonthBefore(
      [
        { currencyCode: 'USD', amount: 112_50, count: 3 },
        { currencyCode: 'EUR', amount: 50_00, count: 1 },
      ],
      [
        { currencyCode: 'USD', amount: 100_00, count: 2 },
        { currencyCode: 'JPY', amount: 5000, count: 1 },
      ],
      'en-US',
    );
    expect(changes).toEqual([
      { currencyCode: 'USD', now: 11250, before: 10000, change: '+$12.50', percent: '+12.5%' },
      { currencyCode: 'EUR', now: 5000, before: 0, change: '+€50.00', percent: null },
      { currencyCode: 'JPY', now: 0, before: 5000, change: '\u2212¥5,000', percent: '\u2212100.0%' },
    ]);
  });

  it('says when nothing changed', () => {
    expect(
      changeFromMonthBefore(
        [{ currencyCode: 'USD', amount: 10, count: 1 }],
        [{ currencyCode: 'USD', amount: 10, count: 1 }],
        'en-US',
      )[0],
    ).toMatchObject({ change: 'no change', percent: '0.0%' });
  });
});

describe('monthName', () => {
  it('names the month in words', () => {
    expect(monthName('2026-10', 'en-US')).toBe('October 2026');
  });
});
