import { describe, expect, it } from 'vitest';
import { packRows, unpackRows } from '../../../../../shared/contract/packedRows';
import { lazyRows } from './lazyRows';

const rows = [
  { key: 0, rowNumber: 2, cells: ['840-1', '25.00', 'Zoë 😀'] },
  { key: 1, rowNumber: null, cells: ['', '', ''] },
  { key: 2, rowNumber: 9, cells: ['840-2', '7', 'x'] },
];

describe('lazyRows', () => {
  const packed = packRows(rows, 3);

  it('reads as the same rows as unpacking them all', () => {
    const lazy = lazyRows(packed);
    expect(lazy).toEqual(unpackRows(packed));
    expect(lazy[0]?.cells).toBe(lazy[0]?.cells);
  });

  it('looks like plain rows to JSON, spreads and structured clones', () => {
    const lazy = lazyRows(packed);
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(rows);
    expect({ ...lazy[2] }).toEqual(rows[2]);
    expect(Object.keys(lazy[0] as object)).toEqual(['key', 'rowNumber', 'cells']);
    expect(structuredClone(lazy[0])).toEqual(rows[0]);
  });

  it('keeps cells given to it', () => {
    const lazy = lazyRows(packed);
    const row = lazy[1] as { cells: string[] };
    row.cells = ['a', 'b', 'c'];
    expect(lazy[1]?.cells).toEqual(['a', 'b', 'c']);
    expect(lazy[2]?.cells).toEqual(['840-2', '7', 'x']);
  });
});
