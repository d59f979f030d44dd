import { describe, expect, it } from 'vitest';
import { parseDecimalText } from './decimalText';
import { toMinorUnits } from './toMinorUnits';

// Plain digits with one decimal mark take a short path; a space in front sends the same text down
// the general path (which trims it), so each case is read both ways and must read the same.
const plain = [
  '0',
  '7',
  '007',
  '25',
  '400.95',
  '0.5',
  '10.005',
  '1.234',
  '123456789012345',
  '1234567890123456789',
  '12.50',
  '00.00',
];
const notPlain = ['.5', '5.', '1..2', '1.2.3', '1,234.56', '', ' ', '-5', '5-', '٣', '$25', '1e5'];

describe('parseDecimalText, plain digits', () => {
  it.each(plain)('reads %j as the general reading does (dot decimal)', (text) => {
    expect(parseDecimalText(text, 'dot-decimal')).toEqual(parseDecimalText(` ${text}`, 'dot-decimal'));
  });

  it.each(plain.map((t) => t.replace('.', ',')))(
    'reads %j as the general reading does (comma decimal)',
    (text) => {
      expect(parseDecimalText(text, 'comma-decimal')).toEqual(parseDecimalText(` ${text}`, 'comma-decimal'));
    },
  );

  it.each(notPlain)('leaves %j to the general reading', (text) => {
    expect(parseDecimalText(text, 'dot-decimal')).toEqual(parseDecimalText(` ${text} `, 'dot-decimal'));
  });
});

describe('toMinorUnits', () => {
  it.each<[string, string, number, ReturnType<typeof toMinorUnits>]>([
    ['400', '95', 2, { ok: true, minor: 40_095 }],
    ['007', '5', 2, { ok: true, minor: 750 }],
    ['0', '00', 2, { ok: false, code: 'AMOUNT_ZERO' }],
    ['', '', 0, { ok: false, code: 'AMOUNT_ZERO' }],
    ['10', '005', 2, { ok: false, code: 'AMOUNT_TOO_PRECISE' }],
    ['10', '500', 2, { ok: true, minor: 1050 }],
    ['9007199254740', '99', 2, { ok: true, minor: 900_719_925_474_099 }],
    ['90071992547409', '93', 2, { ok: false, code: 'AMOUNT_TOO_LARGE' }],
    ['00000000000000001', '00', 2, { ok: true, minor: 100 }],
  ])('%s.%s with %i digits', (intDigits, fracDigits, digits, expected) => {
    expect(toMinorUnits({ negative: false, intDigits, fracDigits }, digits, 'major')).toEqual(expected);
  });

  it('refuses negatives that are not zero', () => {
    expect(toMinorUnits({ negative: true, intDigits: '5', fracDigits: '' }, 2, 'major')).toEqual({
      ok: false,
      code: 'AMOUNT_NEGATIVE',
    });
    expect(toMinorUnits({ negative: true, intDigits: '0', fracDigits: '' }, 2, 'major')).toEqual({
      ok: false,
      code: 'AMOUNT_ZERO',
    });
  });
});
