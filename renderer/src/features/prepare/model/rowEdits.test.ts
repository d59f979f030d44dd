import { describe, expect, it } from 'vitest';
import { cellChangesFor, newRows, withCellChanges, withRowsAt } from './rowEdits';

const rows = [
  { key: 0, rowNumber: 2, cells: ['a', 'b'] },
  { key: 1, rowNumber: 3, cells: ['c'] },
  { key: 5, rowNumber: null, cells: ['e', 'f'] },
];
const positionOf = (key: number) => rows.findIndex((r) => r.key === key);

describe('row edits', () => {
  it('keeps only the edits that change a cell, with the value each replaces', () => {
    expect(
      cellChangesFor(
        rows,
        [
          { key: 0, column: 0, value: 'a' },
          { key: 1, column: 1, value: 'd' },
          { key: 9, column: 0, value: 'x' },
        ],
        positionOf,
      ),
    ).toEqual([
      { key: 1, column: 1, before: '', after: 'd' },
      { key: 9, column: 0, before: '', after: 'x' },
    ]);
  });

  it('applies changes as new row objects, padding short rows, and can apply them backwards to undo', () => {
    const changes = [
      { key: 1, column: 2, before: '', after: 'z' },
      { key: 1, column: 0, before: 'c', after: 'C' },
      { key: 9, column: 0, before: '', after: 'gone' },
    ];
    const { next, touched } = withCellChanges(rows, changes, 'after', positionOf);
    expect(next[1]).toEqual({ key: 1, rowNumber: 3, cells: ['C', '', 'z'] });
    expect(touched).toEqual([next[1]]);
    expect(next[0]).toBe(rows[0]);
    expect(rows[1]?.cells).toEqual(['c']);
    expect(withCellChanges(next, changes, 'before', positionOf).next[1]?.cells).toEqual(['c', '', '']);
  });

  it('finds a row whose position is stale by its key', () => {
    const { next } = withCellChanges(
      rows,
      [{ key: 5, column: 0, before: 'e', after: 'E' }],
      'after',
      () => 0,
    );
    expect(next[2]?.cells).toEqual(['E', 'f']);
    expect(next[0]).toBe(rows[0]);
  });

  it('makes new rows of the sheet’s width with keys from the next key on', () => {
    expect(newRows([[], ['x', 'y', 'too many']], 2, 7)).toEqual([
      { key: 7, rowNumber: null, cells: ['', ''] },
      { key: 8, rowNumber: null, cells: ['x', 'y'] },
    ]);
  });

  it('puts rows back at their indexes, past the end at the end', () => {
    const back = withRowsAt(rows.slice(1), [
      { index: 0, row: rows[0]! },
      { index: 9, row: { key: 6, rowNumber: null, cells: [] } },
    ]);
    expect(back.map((r) => r.key)).toEqual([0, 1, 5, 6]);
  });
});
