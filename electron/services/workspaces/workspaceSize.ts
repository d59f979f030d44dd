import type { WorkspaceEdit, WorkspaceRow } from '../../../shared/contract';

/** How big a workspace is, for its limits: rows, its widest row, and characters in all its cells. */
export interface WorkspaceSize {
  rows: number;
  width: number;
  text: number;
}

export function textOf(rows: readonly WorkspaceRow[]): number {
  let total = 0;
  for (const row of rows) for (const cell of row.cells) total += cell.length;
  return total;
}

export function sizeOf(rows: readonly WorkspaceRow[]): WorkspaceSize {
  let width = 0;
  for (const row of rows) width = Math.max(width, row.cells.length);
  return { rows: rows.length, width, text: textOf(rows) };
}

/**
 * The size after the edits, erring on the large side: a changed cell counts its new text without
 * taking off the old, until the workspace is next opened and measured again.
 */
export function grownBy(size: WorkspaceSize, edits: readonly WorkspaceEdit[]): WorkspaceSize {
  let { rows, width, text } = size;
  for (const edit of edits) {
    if (edit.op === 'set') {
      width = Math.max(width, edit.column + 1);
      text += edit.value.length;
    } else if (edit.op === 'insert') {
      rows++;
      width = Math.max(width, edit.row.cells.length);
      text += edit.row.cells.reduce((sum, cell) => sum + cell.length, 0);
    } else if (edit.op === 'delete') rows = Math.max(0, rows - 1);
  }
  return { rows, width, text };
}
