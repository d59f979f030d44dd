import { describe, expect, it } from 'vitest';
import { EditHistory } from './editHistory';

const step = (label: string) => ({ kind: 'cells' as const, label, changes: [] });

describe('EditHistory', () => {
  it('undoes and redoes in order and forgets the redo stack on a new edit', () => {
    const h = new EditHistory();
    h.record(step('a'));
    h.record(step('b'));
    expect(h.undo()?.label).toBe('b');
    expect(h.undoLabel).toBe('a');
    expect(h.redo()?.label).toBe('b');
    h.undo();
    h.record(step('c'));
    expect(h.canRedo).toBe(false);
    expect(h.undo()?.label).toBe('c');
    expect(h.undo()?.label).toBe('a');
    expect(h.undo()).toBeUndefined();
  });
});
