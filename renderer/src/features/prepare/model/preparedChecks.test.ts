import { describe, expect, it } from 'vitest';
import type { WorkspaceMapping } from '../../../../../shared/workspace';
import { canUsePrepared } from './preparedChecks';
import type { RowSeed } from './rowSeed';

const mapping = {
  template: { columns: { Cause: 'recipientId' } },
  numberStyle: 'auto',
} as unknown as WorkspaceMapping;
const seed = (rows: number, numberStyle: RowSeed['numberStyle'] = 'dot-decimal') =>
  ({ flags: new Uint8Array(rows), numberStyle }) as unknown as RowSeed;
const rows = [
  { key: 0, rowNumber: 2, cells: [] },
  { key: 1, rowNumber: 3, cells: [] },
];

describe('checks prepared in the import worker', () => {
  it('stand when the mapping, the number style and the rows are the same', () => {
    expect(canUsePrepared({ mapping, seed: seed(2) }, mapping, { numberStyle: 'dot-decimal' }, rows)).toBe(
      true,
    );
  });

  it('do not stand for another number style, mapping, row count or keys', () => {
    const checker = { numberStyle: 'dot-decimal' as const };
    expect(canUsePrepared({ mapping, seed: seed(2, 'comma-decimal') }, mapping, checker, rows)).toBe(false);
    expect(canUsePrepared({ mapping, seed: seed(3) }, mapping, checker, rows)).toBe(false);
    const other = { ...mapping, numberStyle: 'comma-decimal' } as WorkspaceMapping;
    expect(canUsePrepared({ mapping, seed: seed(2) }, other, checker, rows)).toBe(false);
    const moved = [rows[1]!, rows[0]!];
    expect(canUsePrepared({ mapping, seed: seed(2) }, mapping, checker, moved)).toBe(false);
  });
});
