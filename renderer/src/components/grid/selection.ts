import type { ActiveCell, CellChangeRequest, GridRow } from './gridTypes';

/** A block of cells by row index and column, both ends included. */
export interface Range {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The block between the selection's anchor and the active cell, whichever way it was drawn. */
export function rangeOf(a: ActiveCell, b: ActiveCell): Range {
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.col, b.col),
    right: Math.max(a.col, b.col),
  };
}

export const cellAt = (rows: readonly GridRow[], r: number, c: number) => rows[r]?.cells[c] ?? '';

/** Delete over a selection: every cell in it that is not empty already. */
export function clearedCells(rows: readonly GridRow[], selection: Range): CellChangeRequest[] {
  const changes: CellChangeRequest[] = [];
  for (let r = selection.top; r <= selection.bottom; r++) {
    const row = rows[r];
    if (!row) continue;
    for (let c = selection.left; c <= selection.right; c++) {
      if (cellAt(rows, r, c) !== '') changes.push({ key: row.key, column: c, value: '' });
    }
  }
  return changes;
}

/** Ctrl+D: the top row of the selection copied down over the rest (nothing for a single row). */
export function filledDown(rows: readonly GridRow[], selection: Range): CellChangeRequest[] {
  const changes: CellChangeRequest[] = [];
  if (selection.bottom === selection.top) return changes;
  for (let c = selection.left; c <= selection.right; c++) {
    const value = cellAt(rows, selection.top, c);
    for (let r = selection.top + 1; r <= selection.bottom; r++) {
      const row = rows[r];
      if (row && cellAt(rows, r, c) !== value) changes.push({ key: row.key, column: c, value });
    }
  }
  return changes;
}

/** The selected cells as a block of lines, for the clipboard. */
export function copiedBlock(rows: readonly GridRow[], selection: Range): string[][] {
  const block: string[][] = [];
  for (let r = selection.top; r <= selection.bottom; r++) {
    const line: string[] = [];
    for (let c = selection.left; c <= selection.right; c++) line.push(cellAt(rows, r, c));
    block.push(line);
  }
  return block;
}

/**
 * A pasted block laid from the selection's top-left cell. One value pasted over a selection of several
 * cells fills all of them. Columns past the last are dropped; lines past the last row come back as
 * `overflow`, whole rows to append.
 */
export function pastedBlock(
  rows: readonly GridRow[],
  selection: Range,
  colCount: number,
  block: readonly string[][],
): { changes: CellChangeRequest[]; overflow: string[][] } {
  const changes: CellChangeRequest[] = [];
  const overflow: string[][] = [];
  const single = block.length === 1 && block[0]?.length === 1;
  const multiSelected = selection.bottom > selection.top || selection.right > selection.left;
  if (single && multiSelected) {
    const value = block[0]?.[0] ?? '';
    for (let r = selection.top; r <= selection.bottom; r++) {
      const row = rows[r];
      if (!row) continue;
      for (let c = selection.left; c <= selection.right; c++) {
        if (cellAt(rows, r, c) !== value) changes.push({ key: row.key, column: c, value });
      }
    }
    return { changes, overflow };
  }
  block.forEach((line, i) => {
    const r = selection.top + i;
    const row = rows[r];
    if (!row) {
      const cells = Array.from({ length: colCount }, () => '');
      line.forEach((v, j) => {
        if (selection.left + j < colCount) cells[selection.left + j] = v;
      });
      overflow.push(cells);
      return;
    }
    line.forEach((value, j) => {
      const c = selection.left + j;
      if (c < colCount && cellAt(rows, r, c) !== value) changes.push({ key: row.key, column: c, value });
    });
  });
  return { changes, overflow };
}
