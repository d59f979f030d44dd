import { describe, expect, it } from 'vitest';
import { totalsInWords } from './totalsWords';

describe('totals in words', () => {
  it('states each currency apart with the number of donations, never a sum across currencies', () => {
    expect(
      totalsInWords(
        [
          { currencyCode: 'USD', count: 1, amount: 3000 },
          { currencyCode: 'EUR', count: 1, amount: 10000 },
        ],
        'en-US',
      ),
    ).toBe('$30.00 and €100.00 in 2 donations');
  });

  it('says one donation, and lists three currencies', () => {
    expect(totalsInWords([{ currencyCode: 'USD', count: 1, amount: 2550 }], 'en-US')).toBe(
      '$25.50 in 1 donation',
    );
    expect(
      totalsInWords(
        [
          { currencyCode: 'USD', count: 2, amount: 100 },
          { currencyCode: 'EUR', count: 1, amount: 200 },
          { currencyCode: 'JPY', count: 1, amount: 300 },
        ],
        'en-US',
      ),
    ).toBe('$1.00, €2.00, and ¥300 in 4 donations');
  });
});
