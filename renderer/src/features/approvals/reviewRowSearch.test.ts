import { describe, expect, it } from 'vitest';
import type { FileRow } from '../../../../shared/contract';
import { rowMatches } from './reviewRowSearch';

const row: FileRow = {
  row: 7,
  recipientId: '840-200000003',
  causeName: 'Harbour Food Bank',
  donor: 'Ada Lovelace',
  amount: 99_999_900,
  currencyCode: 'USD',
  warnings: ["Amount $999,999.00 in row 7 is at least 10 times this file's usual USD amount ($1.00)."],
  sentBy: null,
};

describe('rowMatches: searching the rows of the file', () => {
  it('finds a row by any of its words, whatever the case', () => {
    expect(rowMatches(row, '')).toBe(true);
    expect(rowMatches(row, 'harbour')).toBe(true);
    expect(rowMatches(row, '840-200000003')).toBe(true);
    expect(rowMatches(row, 'ada usd')).toBe(true);
    expect(rowMatches(row, '999999')).toBe(true);
    expect(rowMatches(row, '10 times')).toBe(true);
    expect(rowMatches(row, 'ada eur')).toBe(false);
  });
});
