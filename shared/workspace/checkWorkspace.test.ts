import { describe, expect, it } from 'vitest';
import { checkRow, checkWorkspace } from './checkWorkspace';
import { workspaceMappingSchema } from './workspaceMapping';

const headers = ['Charity ID', 'Gift amount', 'Employee email', 'Employee ID'];
const mapping = workspaceMappingSchema.parse({
  template: {
    columns: {
      'Charity ID': 'recipientId',
      'Gift amount': 'amount',
      'Employee email': 'donor.email',
      'Employee ID': 'metadata.employeeId',
    },
    fixed: { currencyCode: 'USD' },
  },
});
const row = (key: number, cells: string[]) => ({ key, rowNumber: key + 4, cells });

describe('checkWorkspace', () => {
  it('counts valid and invalid rows, places errors on their cells and totals valid rows per currency', () => {
    const rows = [
      row(0, ['840-123456789', '1,250.00', 'ana@acme.example', 'E-1']),
      row(1, ['840-987654321', '10.005', 'ben@acme.example', 'E-2']),
      row(2, ['840-111111111', '25', 'not-an-email', 'E-3']),
      row(3, ['840-222222222', '0.50', '', 'E-4']),
    ];
    const check = checkWorkspace('0f8fad5b-d9cb-469f-a165-70867728950e', headers, mapping, rows);
    expect(check.counts).toMatchObject({ rows: 4, valid: 2, invalid: 2 });
    expect(check.totals).toEqual([{ currencyCode: 'USD', count: 2, amount: 125_050 }]);
    const amountIssue = check.results[1]?.issues.find((i) => i.severity === 'error');
    expect(amountIssue).toMatchObject({ field: 'funds.amount', columnIndex: 1 });
    const emailIssue = check.results[2]?.issues.find((i) => i.severity === 'error');
    expect(emailIssue).toMatchObject({ field: 'donor.email', columnIndex: 2 });
  });

  it('adds a reference pair naming the workspace and the row key, and can leave it out', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const rows = [row(7, ['840-123456789', '5', '', 'E-9'])];
    const withRef = checkWorkspace(id, headers, mapping, rows);
    const donation = withRef.results[0];
    expect(donation?.ok).toBe(true);
    if (donation?.ok) expect(donation.donation.metadata?.ddRef).toBe('0f8fad5b:7');
    const without = checkRow({ ...withRef.checker, referenceKey: null }, rows[0]!);
    if (without.ok) expect(without.donation.metadata?.ddRef).toBeUndefined();
  });

  it('warns about identical rows without counting the reference pair as a difference', () => {
    const rows = [
      row(0, ['840-123456789', '5', 'a@b.example', 'E-1']),
      row(1, ['840-123456789', '5', 'a@b.example', 'E-1']),
    ];
    const check = checkWorkspace('0f8fad5b-d9cb-469f-a165-70867728950e', headers, mapping, rows);
    expect(check.fileIssues.get(1)?.map((i) => i.code)).toContain('DUPLICATE_ROW');
    expect(check.counts.warnings).toBeGreaterThanOrEqual(1);
  });

  it('detects a comma-decimal file', () => {
    const rows = [
      row(0, ['840-123456789', '1.234,56', '', 'E-1']),
      row(1, ['840-123456780', '12,50', '', 'E-2']),
    ];
    const check = checkWorkspace('0f8fad5b-d9cb-469f-a165-70867728950e', headers, mapping, rows);
    expect(check.totals[0]?.amount).toBe(123_456 + 1_250);
  });
});
