import { describe, expect, it } from 'vitest';
import { largestRecipients, totalsByCurrency } from './summary';

const d = (recipientId: string, amount: unknown, currencyCode: unknown) => ({
  destination: { recipientId },
  funds: { amount, currencyCode },
});

describe('totalsByCurrency', () => {
  it('counts and sums per currency in minor units, skipping unusable rows', () => {
    expect(
      totalsByCurrency([
        d('a', 100, 'USD'),
        d('b', 250, 'USD'),
        d('c', 1000, 'JPY'),
        d('x', '5', 'USD'),
        undefined,
        d('y', 5, undefined),
      ]),
    ).toEqual([
      { currencyCode: 'JPY', count: 1, amount: 1000 },
      { currencyCode: 'USD', count: 2, amount: 350 },
    ]);
  });
});

describe('largestRecipients', () => {
  it('ranks recipients by total within each currency', () => {
    const rows = [
      d('a', 100, 'USD'),
      d('b', 500, 'USD'),
      d('a', 450, 'USD'),
      d('c', 10, 'USD'),
      d('a', 7, 'EUR'),
    ];
    expect(largestRecipients(rows, 2)).toEqual([
      { recipientId: 'a', currencyCode: 'EUR', count: 1, amount: 7 },
      { recipientId: 'a', currencyCode: 'USD', count: 2, amount: 550 },
      { recipientId: 'b', currencyCode: 'USD', count: 1, amount: 500 },
    ]);
  });
});
