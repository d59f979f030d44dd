import { describe, expect, it } from 'vitest';
import type { WorkspaceMapping } from '../../../../../shared/workspace';
import { gridColumns, recipientColumnOf } from './gridColumns';

const mapping = {
  template: { columns: { Cause: 'recipientId', 'Gift amount in euros': 'amount' } },
} as unknown as WorkspaceMapping;

describe('grid columns', () => {
  it('shows what each column is mapped to, wide enough for the header and the target', () => {
    expect(gridColumns(['Cause', 'Gift amount in euros', 'Note'], mapping)).toEqual([
      { header: 'Cause', target: 'Recipient ID', width: 120 },
      { header: 'Gift amount in euros', target: 'Amount', width: 220 },
      { header: 'Note', target: undefined, width: 120 },
    ]);
    expect(gridColumns(['A very long header that goes on and on and on'], null)[0]?.width).toBe(260);
  });

  it('finds the recipient column, or -1', () => {
    expect(recipientColumnOf(['Note', 'Cause'], mapping)).toBe(1);
    expect(recipientColumnOf(['Note'], mapping)).toBe(-1);
    expect(recipientColumnOf(['Cause'], null)).toBe(-1);
  });
});
