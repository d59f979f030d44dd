import { describe, expect, it } from 'vitest';
import { neutraliseCell } from './neutraliseCell';

describe('neutraliseCell', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+cmd|" /C calc"!A0', `'+cmd|" /C calc"!A0`],
    ['-2+3+cmd|x', "'-2+3+cmd|x"],
    ['@SUM(1)', "'@SUM(1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['-12.50', '-12.50'],
    ['+44 20 7946 0958', '+44 20 7946 0958'],
    ['840-123456789', '840-123456789'],
    ['Café', 'Café'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });
});
