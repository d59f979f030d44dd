import { describe, expect, it } from 'vitest';
import { becauseWords, flaggedSinceWords, rowsWords, usualMoveWords, type UsualMove } from './usualMoves';

const move = (over: Partial<UsualMove>): UsualMove => ({
  currency: 'USD',
  before: 3000,
  now: 1100,
  factor: 10,
  more: [],
  fewer: [],
  joined: [],
  left: [],
  amended: [],
  ...over,
});

describe('words for a move of the usual amount', () => {
  it('names rows as a person reads them, a long list cut short', () => {
    expect(rowsWords(['5'])).toBe('row 5');
    expect(rowsWords(['5', '9'])).toBe('rows 5 and 9');
    expect(rowsWords(['5', '9', '13'])).toBe('rows 5, 9 and 13');
    expect(rowsWords(['1', '2', '3', '4', '5', '6', '7'])).toBe('rows 1, 2, 3, 4, 5 and 2 more');
  });

  it('says what moved it: rows that came to count, stopped counting, or changed', () => {
    expect(becauseWords(move({ joined: ['5', '9', '13'] }))).toBe('rows 5, 9 and 13 count');
    expect(becauseWords(move({ left: ['7'] }))).toBe('row 7 no longer counts');
    expect(becauseWords(move({ joined: ['5'], amended: ['4'] }))).toBe('rows 5 and 4 changed');
  });

  it('says how many more rows are flagged, against which usual amount, and why', () => {
    expect(usualMoveWords(move({ more: ['6', '7', '11'], joined: ['5', '9', '13'] }))).toBe(
      '3 more rows are now at least 10 times the usual USD amount: it is $11.00 now that rows 5, 9 and 13 count.',
    );
    expect(usualMoveWords(move({ before: 1100, now: 3000, fewer: ['6'], left: ['8'] }))).toBe(
      '1 row is no longer at least 10 times the usual USD amount: it is $30.00 now that row 8 no longer counts.',
    );
    expect(usualMoveWords(move({ now: undefined, fewer: ['6', '7'], left: ['8'] }))).toBe(
      '2 rows are no longer flagged as unusually high: fewer than 5 USD amounts count now that row 8 no longer counts, so there is no usual USD amount.',
    );
  });

  it('tells the flagged row why, from the usual amount before and now', () => {
    expect(flaggedSinceWords(move({ more: ['6'], joined: ['8'] }))).toBe(
      'This row is flagged since row 8 counts: the usual USD amount moved from $30.00 to $11.00.',
    );
    expect(flaggedSinceWords(move({ before: undefined, more: ['6'], joined: ['8'] }))).toBe(
      'This row is flagged since row 8 counts: there are now enough USD amounts for a usual one, $11.00.',
    );
  });
});
