import { describe, expect, it } from 'vitest';
import type { FileIssue } from '../../../../../shared/donation';
import { fileIssuesByRow, resetRequest, rowLabels, updateRequest } from './acrossRowsRequests';

const rows = [
  { key: 4, rowNumber: 2, cells: [] },
  { key: 7, rowNumber: null, cells: [] },
];
const donationOf = (key: number) =>
  key === 4
    ? { destination: { recipientId: '840-1' }, funds: { amount: 100, currencyCode: 'USD' } }
    : undefined;

describe('across-rows requests', () => {
  it('labels rows by their number in the sheet, or as new', () => {
    expect(rowLabels(rows)).toEqual(['2', 'new 2']);
  });

  it('starts a worker with every row, leaving out the reference metadata', () => {
    expect(resetRequest(3, rows, donationOf, 'ddRef')).toEqual({
      type: 'reset',
      id: 3,
      keys: [4, 7],
      labels: ['2', 'new 2'],
      donations: [donationOf(4), undefined],
      ignoreMetadataKeys: ['ddRef'],
    });
    expect(resetRequest(1, [], donationOf, null)).toMatchObject({ ignoreMetadataKeys: [] });
  });

  it('sends the rows edited, the order only when it changed, and nothing when nothing did', () => {
    expect(updateRequest(5, rows, rows, [4], donationOf)).toEqual({
      type: 'update',
      id: 5,
      changed: [[4, donationOf(4)]],
    });
    expect(updateRequest(6, rows, [rows[1]!, rows[0]!], [], donationOf)).toEqual({
      type: 'update',
      id: 6,
      changed: [],
      keys: [7, 4],
      labels: ['new 1', '2'],
    });
    expect(updateRequest(7, rows, rows.slice(0, 1), [], donationOf)).toMatchObject({ keys: [4] });
    expect(updateRequest(8, rows, rows, new Set<number>(), donationOf)).toBeNull();
  });

  it('puts each warning on its row, on the cell of its field where a column holds it', () => {
    const issue = (row: number, field: string): FileIssue => ({
      severity: 'warning',
      row,
      field,
      code: 'DUPLICATE',
      message: 'Same as another row.',
    });
    const columns = new Map([['funds.amount', { header: 'Amount', index: 3 }]]);
    const byRow = fileIssuesByRow(
      [issue(1, 'funds.amount'), issue(1, 'destination'), issue(5, '')],
      [4, 7],
      columns,
    );
    expect([...byRow.keys()]).toEqual([7]);
    expect(byRow.get(7)).toEqual([
      { ...issue(1, 'funds.amount'), column: 'Amount', columnIndex: 3 },
      issue(1, 'destination'),
    ]);
  });
});
