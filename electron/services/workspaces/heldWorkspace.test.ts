import { describe, expect, it } from 'vitest';
import type { Workspace, WorkspaceEdit } from '../../../shared/contract';
import { applyEdits } from './applyEdits';
import { HeldWorkspace } from './heldWorkspace';

const workspace = (): Workspace => ({
  id: 'w',
  name: 'November',
  createdAt: '',
  updatedAt: '',
  state: 'draft',
  source: {
    fileName: 'n.xlsx',
    format: 'xlsx',
    sheet: 'S',
    headerRow: 1,
    headerRowCount: 1,
    totalsRow: null,
    skippedBlankRows: 0,
    warnings: [],
  },
  counts: null,
  headers: ['Charity ID', 'Amount', 'Currency'],
  rows: [
    { key: 1, rowNumber: 2, cells: ['c1', '10.00', 'USD'] },
    { key: 2, rowNumber: 3, cells: ['c2', '20.00', 'USD'] },
    { key: 3, rowNumber: 4, cells: ['c3', '30.00'] },
  ],
  nextKey: 4,
  mapping: null,
  version: 0,
});

const edits: WorkspaceEdit[][] = [
  [{ op: 'set', key: 2, column: 1, value: '25.00' }],
  [
    { op: 'set', key: 1, column: 0, value: 'c9' },
    { op: 'set', key: 3, column: 2, value: 'EUR' },
    { op: 'set', key: 3, column: 4, value: 'far right' },
  ],
  [{ op: 'insert', index: 1, row: { key: 4, rowNumber: null, cells: ['c4', '5', 'USD'] } }],
  [
    { op: 'set', key: 4, column: 1, value: '6' },
    { op: 'delete', key: 1 },
  ],
  [
    { op: 'set', key: 1, column: 1, value: 'gone' },
    { op: 'rename', name: 'Nov' },
    { op: 'mapping', mapping: { a: 1 } },
  ],
];

describe('HeldWorkspace', () => {
  it('ends where applyEdits ends, call after call, keeping its row index between calls', () => {
    const held = workspace();
    const reference = workspace();
    const h = new HeldWorkspace('w', held);
    for (const call of edits) {
      h.apply(call);
      applyEdits(reference, call);
      expect(held.rows).toEqual(reference.rows);
      expect(held.name).toBe(reference.name);
      expect(held.mapping).toEqual(reference.mapping);
    }
  });

  it('says what each call changed, with the values before, the sheet row and the column name', () => {
    const h = new HeldWorkspace('w', workspace());
    expect(h.apply(edits[0]!).cells).toEqual([
      { key: 2, row: 3, column: 'Amount', from: '20.00', to: '25.00' },
    ]);
    const bulk = h.apply(edits[1]!);
    expect(bulk.cells).toEqual([
      { key: 1, row: 2, column: 'Charity ID', from: 'c1', to: 'c9' },
      { key: 3, row: 4, column: 'Currency', from: '', to: 'EUR' },
      { key: 3, row: 4, column: 'Column 5', from: '', to: 'far right' },
    ]);
    h.apply(edits[2]!);
    const fourth = h.apply(edits[3]!);
    expect(fourth.cells).toEqual([{ key: 4, row: null, column: 'Amount', from: '5', to: '6' }]);
    expect(fourth.deleted).toEqual([{ key: 1, row: 2, cells: ['c9', '10.00', 'USD'] }]);
    const last = h.apply(edits[4]!);
    // An edit to a row deleted before is skipped, as replaying the journal skips it.
    expect(last.cells).toEqual([]);
    expect(last.renamed).toEqual({ from: 'November', to: 'Nov' });
    expect(last.mappingChanged).toBe(true);
  });
});
