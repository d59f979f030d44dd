import { describe, expect, it } from 'vitest';
import { RowPositions } from './rowPositions';

describe('row positions', () => {
  it('finds rows by key, and follows rows added, removed or moved', () => {
    let rows = [{ key: 3 }, { key: 1 }, { key: 2 }];
    const positions = new RowPositions(() => rows);
    expect(positions.of(1)).toBe(1);
    expect(positions.of(9)).toBe(-1);
    rows = [{ key: 3 }, { key: 4 }, { key: 1 }, { key: 2 }];
    expect(positions.of(1)).toBe(2);
    // Moved without a change of count or first key: the stale entry is caught.
    rows = [{ key: 3 }, { key: 2 }, { key: 4 }, { key: 1 }];
    expect(positions.of(1)).toBe(3);
    expect(positions.of(2)).toBe(1);
    rows = [];
    expect(positions.of(3)).toBe(-1);
  });
});
