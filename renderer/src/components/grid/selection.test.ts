import { describe, expect, it } from 'vitest';
import { clearedCells, copiedBlock, filledDown, pastedBlock, rangeOf } from './selection';

const rows = [
  { key: 10, rowNumber: 2, cells: ['a', 'b', ''] },
  { key: 11, rowNumber: 3, cells: ['c', '', 'e'] },
  { key: 12, rowNumber: null, cells: ['a', 'x', 'y'] },
];

describe('grid selection', () => {
  it('spans the anchor and the active cell whichever way it was drawn', () => {
    expect(rangeOf({ row: 2, col: 0 }, { row: 0, col: 1 })).toEqual({ top: 0, bottom: 2, left: 0, right: 1 });
  });

  it('clears only the cells that are not empty already', () => {
    expect(clearedCells(rows, { top: 0, bottom: 1, left: 1, right: 2 })).toEqual([
      { key: 10, column: 1, value: '' },
      { key: 11, column: 2, value: '' },
    ]);
  });

  it('fills the top row down over the rest, skipping cells that already match', () => {
    expect(filledDown(rows, { top: 0, bottom: 2, left: 0, right: 1 })).toEqual([
      { key: 11, column: 0, value: 'a' },
      { key: 11, column: 1, value: 'b' },
      { key: 12, column: 1, value: 'b' },
    ]);
    expect(filledDown(rows, { top: 1, bottom: 1, left: 0, right: 2 })).toEqual([]);
  });

  it('copies the selected block line by line', () => {
    expect(copiedBlock(rows, { top: 1, bottom: 2, left: 1, right: 2 })).toEqual([
      ['', 'e'],
      ['x', 'y'],
    ]);
  });

  it('fills a selection of several cells with one pasted value', () => {
    expect(pastedBlock(rows, { top: 0, bottom: 1, left: 0, right: 0 }, 3, [['c']])).toEqual({
      changes: [{ key: 10, column: 0, value: 'c' }],
      overflow: [],
    });
  });

  it('lays a block from the top-left cell, dropping columns past the last and appending lines past the end', () => {
    const pasted = pastedBlock(rows, { top: 1, bottom: 1, left: 1, right: 1 }, 3, [
      ['p', 'e', 'dropped'],
      ['q', 'r'],
      ['s', 't', 'u'],
    ]);
    expect(pasted.changes).toEqual([
      { key: 11, column: 1, value: 'p' },
      { key: 12, column: 1, value: 'q' },
      { key: 12, column: 2, value: 'r' },
    ]);
    expect(pasted.overflow).toEqual([['', 's', 't']]);
  });

  it('pastes one value into one cell as it is', () => {
    expect(pastedBlock(rows, { top: 0, bottom: 0, left: 2, right: 2 }, 3, [['z']]).changes).toEqual([
      { key: 10, column: 2, value: 'z' },
    ]);
  });
});
