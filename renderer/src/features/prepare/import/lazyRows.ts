import type { WorkspaceRow } from '../../../../../shared/contract';

interface Table {
  texts: string;
  lengths: ArrayLike<number>;
  width: number;
}

/**
 * Packed rows (see PackedRows) as workspace rows keyed 0, 1, 2…, each cut from the text only when
 * its cells are first read: the grid reads the few rows on screen, so 100,000 rows are ready in a
 * fraction of the time (and memory churn) of cutting 1.4 million cells at once.
 *
 * `cells` is an own, enumerable accessor that turns into a plain value when first read or set, so
 * JSON, spreads and structured clones see plain rows. A row's key is its place in the table (keys
 * never change), which is how the accessor finds its cells.
 */
export function lazyRows(packed: Table & { rowNumbers: ArrayLike<number | null> }): WorkspaceRow[] {
  const builder = lazyRowsBuilder(packed);
  while (!builder.next(Infinity));
  return builder.rows;
}

/**
 * lazyRows a slice at a time (`next(count)` makes `count` more rows and says whether all are made),
 * so the window can make them between other work without a long pause.
 */
export function lazyRowsBuilder(packed: Table & { rowNumbers: ArrayLike<number | null> }): {
  rows: WorkspaceRow[];
  next(count: number): boolean;
} {
  const { texts, lengths, rowNumbers, width } = packed;
  const starts = new Float64Array(rowNumbers.length);
  const settle = (row: WorkspaceRow, cells: string[]) =>
    Object.defineProperty(row, 'cells', {
      value: cells,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  const cells: PropertyDescriptor = {
    get(this: WorkspaceRow): string[] {
      const row = this.key;
      const out: string[] = [];
      let at = starts[row] as number;
      for (let c = 0, cell = row * width; c < width; c++, cell++) {
        const end = at + (lengths[cell] as number);
        out.push(texts.slice(at, end));
        at = end;
      }
      settle(this, out);
      return out;
    },
    set(this: WorkspaceRow, value: string[]) {
      settle(this, value);
    },
    enumerable: true,
    configurable: true,
  };
  const rows = new Array<WorkspaceRow>(rowNumbers.length);
  let at = 0;
  let cell = 0;
  let r = 0;
  return {
    rows,
    next(count: number): boolean {
      const stop = Math.min(rowNumbers.length, r + count);
      for (; r < stop; r++) {
        starts[r] = at;
        for (let c = 0; c < width; c++) at += lengths[cell++] as number;
        rows[r] = Object.defineProperty(
          { key: r, rowNumber: rowNumbers[r] || null },
          'cells',
          cells,
        ) as WorkspaceRow;
      }
      return r >= rowNumbers.length;
    },
  };
}
