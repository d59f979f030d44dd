import { describe, expect, it } from 'vitest';
import { formatMinor, minorToMajorString } from './formatMinor';
import { currencyDigits, isCurrencyCode } from './currencies';

describe('formatMinor', () => {
  it.each([
    [123456, 'USD', 'en-US', '$1,234.56'],
    [1000, 'JPY', 'en-US', '¥1,000'],
    [1234567, 'KWD', 'en-US', 'KWD 1,234.567'],
    [5, 'USD', 'en-US', '$0.05'],
    [9007199254740991, 'USD', 'en-US', '$90,071,992,547,409.91'],
  ])('%d %s %s → %s', (amount, currency, locale, text) => {
    expect(formatMinor(amount, currency, locale).replace(/\u00a0/g, ' ')).toBe(text);
  });

  it('uses the locale grouping and places the symbol as the locale does', () => {
    expect(formatMinor(123456, 'EUR', 'de-DE').replace(/\u00a0/g, ' ')).toBe('1.234,56 €');
  });

  it('falls back to plain text when Intl does not know the code', () => {
    expect(formatMinor(1050, 'US', 'en-US')).toBe('10.50 US');
  });

  it('gives back the decimal a person would type', () => {
    expect(minorToMajorString(2550, 'USD')).toBe('25.50');
    expect(minorToMajorString(5, 'KWD')).toBe('0.005');
    expect(minorToMajorString(1000, 'JPY')).toBe('1000');
  });
});

describe('currency table', () => {
  it.each([
    ['USD', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
    ['EUR', 2],
    ['ISK', 0],
    ['XOF', 0],
  ])('%s has %d digits', (code, digits) => {
    expect(currencyDigits(code)).toBe(digits);
  });

  it.each(['usd', 'XAU', 'XXX', 'XTS', 'ABC', '', 'USDX', 'toString'])(
    '%j is not an active currency',
    (code) => {
      expect(isCurrencyCode(code)).toBe(false);
    },
  );
});
