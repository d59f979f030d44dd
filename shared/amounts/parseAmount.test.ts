import { describe, expect, it } from 'vitest';
import { parseAmount } from './parseAmount';
import type { AmountUnit, NumberStyle } from './types';

type Ok = [input: unknown, currency: string | undefined, style: NumberStyle, unit: AmountUnit, minor: number];
const accepted: Ok[] = [
  ['25', 'USD', 'dot-decimal', 'major', 2500],
  ['25.5', 'USD', 'dot-decimal', 'major', 2550],
  ['25.50', 'USD', 'dot-decimal', 'major', 2550],
  ['1,234.56', 'USD', 'dot-decimal', 'major', 123456],
  ['1,234,567.89', 'USD', 'dot-decimal', 'major', 123456789],
  ['1.234,56', 'EUR', 'comma-decimal', 'major', 123456],
  ['1 234,56', 'EUR', 'comma-decimal', 'major', 123456],
  ['1\u00a0234,56', 'EUR', 'comma-decimal', 'major', 123456],
  ['1\u202f234,56', 'EUR', 'comma-decimal', 'major', 123456],
  ['1 234.56', 'USD', 'dot-decimal', 'major', 123456],
  ["1'234.56", 'CHF', 'dot-decimal', 'major', 123456],
  ['1\u2019234.56', 'CHF', 'dot-decimal', 'major', 123456],
  ['12,34,567.00', 'INR', 'dot-decimal', 'major', 123456700],
  ['$25', 'USD', 'dot-decimal', 'major', 2500],
  ['$ 25.00', 'USD', 'dot-decimal', 'major', 2500],
  ['US$25', 'USD', 'dot-decimal', 'major', 2500],
  ['$25', 'CAD', 'dot-decimal', 'major', 2500],
  ['25 €', 'EUR', 'comma-decimal', 'major', 2500],
  ['25,00 €', 'EUR', 'comma-decimal', 'major', 2500],
  ['€25.10', 'EUR', 'dot-decimal', 'major', 2510],
  ['£1,000', 'GBP', 'dot-decimal', 'major', 100000],
  ['USD 25', 'USD', 'dot-decimal', 'major', 2500],
  ['25 usd', 'USD', 'dot-decimal', 'major', 2500],
  ['USD 25', undefined, 'dot-decimal', 'major', 2500],
  ['$25 USD', 'USD', 'dot-decimal', 'major', 2500],
  ['  25  ', 'USD', 'dot-decimal', 'major', 2500],
  ['+25', 'USD', 'dot-decimal', 'major', 2500],
  ['.50', 'USD', 'dot-decimal', 'major', 50],
  ['0,5', 'EUR', 'comma-decimal', 'major', 50],
  ['25.', 'USD', 'dot-decimal', 'major', 2500],
  ['25.-', 'CHF', 'dot-decimal', 'major', 2500],
  ['10.500', 'USD', 'dot-decimal', 'major', 1050],
  ['007', 'USD', 'dot-decimal', 'major', 700],
  ['1000', 'JPY', 'dot-decimal', 'major', 1000],
  ['¥1,000', 'JPY', 'dot-decimal', 'major', 1000],
  ['1.000', 'JPY', 'comma-decimal', 'major', 1000],
  ['1.234', 'KWD', 'dot-decimal', 'major', 1234],
  ['1,5', 'KWD', 'comma-decimal', 'major', 1500],
  ['12.3456', 'CLF', 'dot-decimal', 'major', 123456],
  ['1,234', 'USD', 'dot-decimal', 'major', 123400],
  ['1.234', 'EUR', 'comma-decimal', 'major', 123400],
  ['2550', 'USD', 'dot-decimal', 'minor', 2550],
  ['2,550', 'USD', 'dot-decimal', 'minor', 2550],
  ['2550.00', 'USD', 'dot-decimal', 'minor', 2550],
  [25, 'USD', 'dot-decimal', 'major', 2500],
  [25.5, 'USD', 'dot-decimal', 'major', 2550],
  [1234.56, 'USD', 'comma-decimal', 'major', 123456],
  [0.1 + 0.2, 'USD', 'dot-decimal', 'major', 30],
  [1.1 * 25, 'USD', 'dot-decimal', 'major', 2750],
  [1e21, 'JPY', 'dot-decimal', 'major', Number.NaN],
  [2550, 'USD', 'dot-decimal', 'minor', 2550],
  [1000, 'JPY', 'dot-decimal', 'major', 1000],
  [1.5, 'KWD', 'dot-decimal', 'major', 1500],
  ['90,071,992,547,409.91', 'USD', 'dot-decimal', 'major', 9007199254740991],
];

describe('parseAmount accepts what people type', () => {
  it.each(accepted.filter((c) => !Number.isNaN(c[4])))(
    '%j %s (%s, %s) → %d',
    (input, currency, style, unit, minor) => {
      const result = parseAmount(input, currency, { style, unit });
      expect(result).toMatchObject({ ok: true, minor });
    },
  );

  it('takes a bigint as a whole number of units', () => {
    expect(parseAmount(25n, 'USD')).toMatchObject({ ok: true, minor: 2500 });
  });

  it('returns the currency written in the cell when the row has none', () => {
    expect(parseAmount('EUR 10', undefined)).toMatchObject({ ok: true, currencyCode: 'EUR', minor: 1000 });
  });

  it('notes spreadsheet float noise instead of hiding it', () => {
    const result = parseAmount(0.1 + 0.2, 'USD');
    expect(result.ok && result.notes[0]).toEqual({
      code: 'AMOUNT_FLOAT_ARTEFACT',
      message:
        'Amount 0.30000000000000004 carries spreadsheet rounding noise; it was read as 0.30, the value the sheet shows.',
    });
    expect(parseAmount(25.5, 'USD')).toMatchObject({ ok: true, notes: [] });
  });

  it('can refuse float noise instead', () => {
    expect(parseAmount(1.1 * 25, 'USD', { floatNoise: 'refuse' })).toEqual({
      ok: false,
      code: 'AMOUNT_FLOAT_NOISE',
      message:
        'Amount 27.500000000000004 comes from a formula with rounding noise. Round it in your sheet (for example with ROUND) or enter 27.50.',
    });
    expect(parseAmount(10.005, 'USD', { floatNoise: 'as-shown' })).toMatchObject({
      ok: false,
      code: 'AMOUNT_TOO_PRECISE',
    });
  });
});

type Bad = [input: unknown, currency: string | undefined, style: NumberStyle, unit: AmountUnit, code: string];
const refused: Bad[] = [
  ['', 'USD', 'dot-decimal', 'major', 'AMOUNT_EMPTY'],
  ['   ', 'USD', 'dot-decimal', 'major', 'AMOUNT_EMPTY'],
  [null, 'USD', 'dot-decimal', 'major', 'AMOUNT_EMPTY'],
  [undefined, 'USD', 'dot-decimal', 'major', 'AMOUNT_EMPTY'],
  ['0', 'USD', 'dot-decimal', 'major', 'AMOUNT_ZERO'],
  ['0.00', 'USD', 'dot-decimal', 'major', 'AMOUNT_ZERO'],
  ['0.001', 'USD', 'dot-decimal', 'major', 'AMOUNT_TOO_PRECISE'],
  [0, 'USD', 'dot-decimal', 'major', 'AMOUNT_ZERO'],
  [-0, 'USD', 'dot-decimal', 'major', 'AMOUNT_ZERO'],
  ['-25', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['\u221225', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['(25.00)', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['25-', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['-$25', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['$-25', 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  [-25, 'USD', 'dot-decimal', 'major', 'AMOUNT_NEGATIVE'],
  ['--25', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['abc', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['25 dollars', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['25abc3', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['1e5', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['N/A', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  [Number.NaN, 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  [Number.POSITIVE_INFINITY, 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  [true, 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  [new Date(2024, 0, 1), 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['10.005', 'USD', 'dot-decimal', 'major', 'AMOUNT_TOO_PRECISE'],
  [10.005, 'USD', 'dot-decimal', 'major', 'AMOUNT_TOO_PRECISE'],
  ['12.5', 'JPY', 'dot-decimal', 'major', 'AMOUNT_TOO_PRECISE'],
  ['1.2345', 'KWD', 'dot-decimal', 'major', 'AMOUNT_TOO_PRECISE'],
  ['25.5', 'USD', 'dot-decimal', 'minor', 'AMOUNT_MINOR_NOT_WHOLE'],
  [25.5, 'USD', 'dot-decimal', 'minor', 'AMOUNT_MINOR_NOT_WHOLE'],
  ['10,5', 'USD', 'dot-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['1.234,56', 'USD', 'dot-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['1.234.567', 'USD', 'dot-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['1,234.56', 'EUR', 'comma-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['10.5', 'EUR', 'comma-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['1,23', 'USD', 'dot-decimal', 'major', 'AMOUNT_SEPARATOR_MISMATCH'],
  ['12 34', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['1,234 567', 'USD', 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['€25', 'USD', 'dot-decimal', 'major', 'AMOUNT_CURRENCY_MISMATCH'],
  ['EUR 25', 'USD', 'dot-decimal', 'major', 'AMOUNT_CURRENCY_MISMATCH'],
  ['$25', 'EUR', 'dot-decimal', 'major', 'AMOUNT_CURRENCY_MISMATCH'],
  ['USD 25 EUR', undefined, 'dot-decimal', 'major', 'AMOUNT_NOT_A_NUMBER'],
  ['25', undefined, 'dot-decimal', 'major', 'AMOUNT_CURRENCY_UNKNOWN'],
  ['$25', undefined, 'dot-decimal', 'major', 'AMOUNT_CURRENCY_UNKNOWN'],
  ['25', 'XYZ', 'dot-decimal', 'major', 'AMOUNT_CURRENCY_UNKNOWN'],
  ['99999999999999999', 'USD', 'dot-decimal', 'major', 'AMOUNT_TOO_LARGE'],
  [1e21, 'JPY', 'dot-decimal', 'major', 'AMOUNT_TOO_LARGE'],
];

describe('parseAmount refuses with a code and a plain message', () => {
  it.each(refused)('%j %s (%s, %s) → %s', (input, currency, style, unit, code) => {
    const result = parseAmount(input, currency, { style, unit });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe(code);
      expect(result.message).toMatch(/\.$/);
    }
  });

  it('says how to round, in the words of the issue', () => {
    expect(parseAmount('10.005', 'USD')).toEqual({
      ok: false,
      code: 'AMOUNT_TOO_PRECISE',
      message:
        'Amount "10.005" has more decimals than USD allows (2). Round it in your sheet or enter 10.01.',
    });
    const yen = parseAmount('12.5', 'JPY');
    expect(!yen.ok && yen.message).toContain('enter 13');
    const euro = parseAmount('10,004', 'EUR', { style: 'comma-decimal' });
    expect(!euro.ok && euro.message).toContain('enter 10,00');
  });

  it('explains a separator that belongs to the other style', () => {
    const result = parseAmount('10,5', 'USD');
    expect(!result.ok && result.message).toContain('1,234.56');
  });
});

describe('a negative amount, as a person wrote it', () => {
  it('says to remove the brackets of an accounting negative, and the minus sign of any other', () => {
    const bracketed = parseAmount('(20.00)', 'USD');
    expect(bracketed.ok).toBe(false);
    if (!bracketed.ok) expect(bracketed.message).toContain('remove the brackets');
    const minus = parseAmount('-20.00', 'USD');
    if (!minus.ok) expect(minus.message).toContain('remove the minus sign');
    expect(minus.ok).toBe(false);
  });
});
