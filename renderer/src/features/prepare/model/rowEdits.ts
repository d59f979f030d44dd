import type { WorkspaceRow } from '../../../../../shared/contract';
import type { CellChange } from '../../../lib/editHistory';

export interface CellEdit {
  key: number;
  column: number;
  value: string;
}

/** The edits that change something, each with the value it replaces (for undo). */
export function cellChangesFor(
  rows: readonly WorkspaceRow[],
  edits: readonly CellEdit[],
  positionOf: (key: number) => number,
): CellChange[] {
  const changes: CellChange[] = [];
  for (const e of edits) {
    const before = rows[positionOf(e.key)]?.cells[e.column] ?? '';
    if (before !== e.value) changes.push({ key: e.key, column: e.column, before, after: e.value });
  }
  return changes;
}

/**
 * The rows with the changes' `after` (or, to undo, `before`) values in their cells, as new row objects
 * for the rows touched (returned as `touched` to check again); rows too short are padded.
 */
export function withCellChanges(
  previous: readonly WorkspaceRow[],
  changes: readonly CellChange[],
  direction: 'after' | 'before',
  positionOf: (key: number) => number,
): { next: WorkspaceRow[]; touched: WorkspaceRow[] } {
  const byKey = new Map<number, CellChange[]>();
  for (const c of changes) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
  const touched: WorkspaceRow[] = [];
  const next = previous.slice();
  for (const [key, mine] of byKey) {
    let at = positionOf(key);
    if (previous[at]?.key !== key) at = previous.findIndex((r) => r.key === key);
    const row = previous[at];
    if (!row) continue;
    const cells = [...row.cells];
    for (const c of mine) {
      while (cells.length <= c.column) cells.push('');
      cells[c.column] = c[direction];
    }
    const updated = { ...row, cells };
    touched.push(updated);
    next[at] = updated;
  }
  return { next, touched };
}

/** New rows added in the app: keys from `firstKey` on, no row number, every cell of the sheet's width. */
export function newRows(cellsList: readonly string[][], width: number, firstKey: number): WorkspaceRow[] {
  return cellsList.map((cells, i) => ({
    key: firstKey + i,
    rowNumber: null,
    cells: Array.from({ length: width }, (_, c) => cells[c] ?? ''),
  }));
}

/** The rows with `entries` put back at their indexes, in order (an index past the end appends). */
export function withRowsAt(
  rows: readonly WorkspaceRow[],
  entries: readonly { index: number; row: WorkspaceRow }[],
): WorkspaceRow[] {
  const next = [...rows];
  for (const e of entries) next.splice(Math.min(e.index, next.length), 0, e.row);
  return next;
}
