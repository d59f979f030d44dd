import { describe, expect, it } from 'vitest';
import { keyAction, type KeyState } from './gridKeys';

const size = { rowCount: 100, colCount: 5, page: 10 };
const at = { row: 50, col: 2 };
const press = (key: string, mods: Partial<KeyState> = {}, active = at, grid = size) =>
  keyAction({ key, ctrl: false, shift: false, ...mods }, active, grid);

describe('grid keyboard', () => {
  it('moves with the arrows, to the edge with Ctrl, and extends the selection with Shift', () => {
    expect(press('ArrowDown')).toEqual({
      action: { kind: 'move', to: { row: 51, col: 2 }, extend: false },
      prevent: true,
    });
    expect(press('ArrowUp', { ctrl: true }).action).toEqual({
      kind: 'move',
      to: { row: 0, col: 2 },
      extend: false,
    });
    expect(press('ArrowRight', { ctrl: true }).action).toEqual({
      kind: 'move',
      to: { row: 50, col: 4 },
      extend: false,
    });
    expect(press('ArrowLeft', { shift: true }).action).toEqual({
      kind: 'move',
      to: { row: 50, col: 1 },
      extend: true,
    });
    expect(press('ArrowUp', {}, { row: 0, col: 0 }).action).toEqual({
      kind: 'move',
      to: { row: 0, col: 0 },
      extend: false,
    });
  });

  it('pages, and goes home and to the end of the row or, with Ctrl, of the sheet', () => {
    expect(press('PageDown').action).toEqual({ kind: 'move', to: { row: 60, col: 2 }, extend: false });
    expect(press('PageUp', {}, { row: 3, col: 2 }).action).toEqual({
      kind: 'move',
      to: { row: 0, col: 2 },
      extend: false,
    });
    expect(press('Home').action).toEqual({ kind: 'move', to: { row: 50, col: 0 }, extend: false });
    expect(press('End', { ctrl: true, shift: true }).action).toEqual({
      kind: 'move',
      to: { row: 99, col: 4 },
      extend: true,
    });
  });

  it('moves across with Tab but lets it leave the grid at its edges', () => {
    expect(press('Tab', { shift: true }).action).toEqual({
      kind: 'move',
      to: { row: 50, col: 1 },
      extend: false,
    });
    expect(press('Tab', {}, { row: 1, col: 4 })).toEqual({ action: null, prevent: false });
    expect(press('Tab', { shift: true }, { row: 1, col: 0 })).toEqual({ action: null, prevent: false });
  });

  it('edits with Enter or F2, and typing replaces the cell', () => {
    expect(press('Enter')).toEqual({ action: { kind: 'edit', value: null }, prevent: true });
    expect(press('F2').action).toEqual({ kind: 'edit', value: null });
    expect(press('7')).toEqual({ action: { kind: 'edit', value: '7' }, prevent: true });
    expect(press('x', { alt: true })).toEqual({ action: null, prevent: false });
    expect(press('Shift')).toEqual({ action: null, prevent: false });
  });

  it('clears with Delete or Backspace and jumps between errors with F8', () => {
    expect(press('Delete').action).toEqual({ kind: 'clear' });
    expect(press('Backspace').action).toEqual({ kind: 'clear' });
    expect(press('F8').action).toEqual({ kind: 'command', command: 'next-error' });
    expect(press('F8', { shift: true }).action).toEqual({ kind: 'command', command: 'previous-error' });
  });

  it('has the Ctrl shortcuts of a spreadsheet, and leaves other Ctrl keys to the browser', () => {
    const ctrl = (key: string, shift = false) => press(key, { ctrl: true, shift });
    expect(ctrl('z')).toEqual({ action: { kind: 'command', command: 'undo' }, prevent: true });
    expect(ctrl('Z', true).action).toEqual({ kind: 'command', command: 'redo' });
    expect(ctrl('y').action).toEqual({ kind: 'command', command: 'redo' });
    expect(ctrl('d').action).toEqual({ kind: 'fill-down' });
    expect(ctrl('f').action).toEqual({ kind: 'command', command: 'find' });
    expect(ctrl('h').action).toEqual({ kind: 'command', command: 'find' });
    expect(ctrl('a').action).toEqual({ kind: 'select-all' });
    expect(ctrl('c')).toEqual({ action: null, prevent: false });
  });

  it('only undoes and redoes when the grid has no rows, leaving the key to the browser too', () => {
    const empty = { rowCount: 0, colCount: 5, page: 10 };
    expect(press('z', { ctrl: true }, { row: 0, col: 0 }, empty)).toEqual({
      action: { kind: 'command', command: 'undo' },
      prevent: false,
    });
    expect(press('ArrowDown', {}, { row: 0, col: 0 }, empty)).toEqual({ action: null, prevent: false });
  });
});
