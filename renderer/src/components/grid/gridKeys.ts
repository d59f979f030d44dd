import type { ActiveCell } from './gridTypes';

export interface KeyState {
  key: string;
  /** Ctrl, or Cmd on a Mac. */
  ctrl: boolean;
  shift: boolean;
  alt?: boolean;
}

export type GridCommand = 'undo' | 'redo' | 'find' | 'next-error' | 'previous-error';

/** What a key pressed on the grid (not in its cell editor) does. */
export type GridKeyAction =
  | { kind: 'move'; to: ActiveCell; extend: boolean }
  /** Start editing the active cell: with its value (`null`), or replaced by the character typed. */
  | { kind: 'edit'; value: string | null }
  | { kind: 'clear' }
  | { kind: 'fill-down' }
  | { kind: 'select-all' }
  | { kind: 'command'; command: GridCommand };

export interface GridSize {
  rowCount: number;
  colCount: number;
  /** Rows in one page, for PageUp and PageDown. */
  page: number;
}

/**
 * Where a navigation key takes the active cell, and whether it extends the selection (Shift);
 * `leave` for Tab at the grid's first or last column, so that focus moves on and keyboard users are
 * never trapped; null for any other key. Assumes the grid has rows.
 */
export function navigate(
  { key, ctrl, shift }: KeyState,
  active: ActiveCell,
  { rowCount, colCount, page }: GridSize,
): { to: ActiveCell; extend: boolean } | 'leave' | null {
  const clampRow = (r: number) => Math.max(0, Math.min(rowCount - 1, r));
  const clampCol = (c: number) => Math.max(0, Math.min(colCount - 1, c));
  const move = (dr: number, dc: number, extend = shift) => ({
    to: { row: clampRow(active.row + dr), col: clampCol(active.col + dc) },
    extend,
  });
  switch (key) {
    case 'ArrowUp':
      return move(ctrl ? -rowCount : -1, 0);
    case 'ArrowDown':
      return move(ctrl ? rowCount : 1, 0);
    case 'ArrowLeft':
      return move(0, ctrl ? -colCount : -1);
    case 'ArrowRight':
      return move(0, ctrl ? colCount : 1);
    case 'PageUp':
      return move(-page, 0);
    case 'PageDown':
      return move(page, 0);
    case 'Home':
      return { to: { row: ctrl ? 0 : active.row, col: 0 }, extend: shift };
    case 'End':
      return { to: { row: ctrl ? rowCount - 1 : active.row, col: colCount - 1 }, extend: shift };
    case 'Tab':
      if ((shift && active.col === 0) || (!shift && active.col === colCount - 1)) return 'leave';
      return move(0, shift ? -1 : 1, false);
  }
  return null;
}

const CTRL_KEYS: Record<string, (shift: boolean) => GridKeyAction> = {
  z: (shift) => ({ kind: 'command', command: shift ? 'redo' : 'undo' }),
  y: () => ({ kind: 'command', command: 'redo' }),
  d: () => ({ kind: 'fill-down' }),
  f: () => ({ kind: 'command', command: 'find' }),
  h: () => ({ kind: 'command', command: 'find' }),
  a: () => ({ kind: 'select-all' }),
};

/**
 * The grid's keyboard, as in a spreadsheet: what a key does, and whether the browser's own handling
 * of it is to be prevented (Tab at an edge and keys the grid does not use are left to the browser).
 */
export function keyAction(
  state: KeyState,
  active: ActiveCell,
  size: GridSize,
): { action: GridKeyAction | null; prevent: boolean } {
  const { key, ctrl, shift, alt = false } = state;
  if (size.rowCount === 0) {
    const undo = ctrl && key.toLowerCase() === 'z';
    return { action: undo ? { kind: 'command', command: shift ? 'redo' : 'undo' } : null, prevent: false };
  }
  const nav = navigate(state, active, size);
  if (nav === 'leave') return { action: null, prevent: false };
  if (nav) return { action: { kind: 'move', ...nav }, prevent: true };
  switch (key) {
    case 'Enter':
    case 'F2':
      return { action: { kind: 'edit', value: null }, prevent: true };
    case 'Delete':
    case 'Backspace':
      return { action: { kind: 'clear' }, prevent: true };
    case 'F8':
      return { action: { kind: 'command', command: shift ? 'previous-error' : 'next-error' }, prevent: true };
  }
  if (ctrl) {
    const action = CTRL_KEYS[key.toLowerCase()]?.(shift) ?? null;
    return { action, prevent: action !== null };
  }
  // Typing over a cell replaces its content.
  if (key.length === 1 && !alt) return { action: { kind: 'edit', value: key }, prevent: true };
  return { action: null, prevent: false };
}
