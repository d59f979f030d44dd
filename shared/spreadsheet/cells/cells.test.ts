import { describe, expect, it } from 'vitest';
import { isDateFormatCode } from './dateFormat';
import { excelSerialToIso } from './excelDate';
import { formatNumber, formatNumericText } from './numberText';

describe('number text', () => {
  it.each([
    ['0.30000000000000004', '0.3'],
    ['12.5', '12.5'],
    ['-3', '-3'],
    ['0', '0'],
    ['-0', '0'],
    ['1.50', '1.5'],
    ['007', '7'],
    ['1E-3', '0.001'],
    ['123456789012.34567', '123456789012.346'],
    ['99999999999999.9', '99999999999999.9'],
    ['abc', 'abc'],
    ['', ''],
  ])('%s is shown as %s', (raw, shown) => expect(formatNumericText(raw)).toBe(shown));

  it('hides binary artefacts of arithmetic', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1.1 * 3)).toBe('3.3');
    expect(formatNumber(25)).toBe('25');
  });
});

describe('Excel dates', () => {
  it.each([
    [1, false, '1900-01-01'],
    [59, false, '1900-02-28'],
    [60, false, '1900-02-29'],
    [61, false, '1900-03-01'],
    [46329, false, '2026-11-03'],
    [46330.5625, false, '2026-11-04T13:30:00'],
    [44867, true, '2026-11-03'],
    [0, true, '1904-01-01'],
    [45000.99999999, false, '2023-03-16'],
  ])('serial %s (1904: %s) is %s', (serial, date1904, iso) =>
    expect(excelSerialToIso(serial, date1904)).toBe(iso),
  );

  it('shows time-only values as a time of day', () => {
    expect(excelSerialToIso(0.75, false, true)).toBe('18:00:00');
  });
});

describe('date formats', () => {
  it.each([
    ['yyyy-mm-dd', true],
    ['d/m/yy h:mm', true],
    ['[$-409]mmmm d, yyyy;@', true],
    ['h:mm AM/PM', true],
    ['0.00', false],
    ['#,##0.00 "days"', false],
    ['[Red]0.00', false],
    ['General', false],
    ['0.00E+00', false],
    ['"$"#,##0.00_);("$"#,##0.00)', false],
    ['@', false],
  ])('%s is a date format: %s', (code, isDate) => expect(isDateFormatCode(code)).toBe(isDate));
});
