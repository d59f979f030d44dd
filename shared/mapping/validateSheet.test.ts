import { describe, expect, it } from 'vitest';
import { makeReference } from './reference';
import { validateSheet } from './validateSheet';

const headers = ['Charity ID', 'Gift amount', 'Employee email'];
const mapping = {
  columns: { 'Charity ID': 'recipientId', 'Gift amount': 'amount', 'Employee email': 'donor.email' },
  fixed: { currencyCode: 'EUR' },
  amountUnit: 'major',
} as const;

describe('validateSheet', () => {
  it('maps, checks, detects the number style, adds file warnings and totals', () => {
    const result = validateSheet({
      headers,
      mapping: { ...mapping, columns: { ...mapping.columns } },
      rows: [
        ['840-1', '1.234,50', 'a@x.com'],
        ['840-2', '10,00', 'b@x.com'],
        ['', '5', 'c@x.com'],
        ['840-1', '1.234,50', 'a@x.com'],
      ],
      rowNumbers: [4, 5, 7, 8],
      reference: (row) => makeReference('ws9', row),
    });
    expect(result.numberStyle).toBe('comma-decimal');
    expect(result.mappingProblems).toEqual([]);
    expect(result.counts).toEqual({ rows: 4, valid: 3, invalid: 1, warnings: 1 });
    expect(result.issues.map((i) => [i.row, i.severity, i.column, i.field, i.code])).toEqual([
      [7, 'error', 'Charity ID', 'destination.recipientId', 'RECIPIENT_REQUIRED'],
      [8, 'warning', undefined, '', 'DUPLICATE_ROW'],
    ]);
    expect(result.issues[1]?.message).toContain('identical to row 4');
    expect(result.totals).toEqual([{ currencyCode: 'EUR', count: 3, amount: 123450 + 1000 + 123450 }]);
    expect(result.rows[0]?.donation.metadata).toEqual({ ddRef: 'ws9:4' });
  });

  it('numbers rows from firstRow when no row numbers are given, and reports mapping problems', () => {
    const result = validateSheet({
      headers: ['X'],
      rows: [['a']],
      mapping: { columns: {}, amountUnit: 'major' },
      firstRow: 10,
    });
    expect(result.rows[0]?.row).toBe(10);
    expect(result.mappingProblems.map((p) => p.code)).toEqual([
      'MAPPING_RECIPIENT_MISSING',
      'MAPPING_AMOUNT_MISSING',
      'MAPPING_CURRENCY_MISSING',
    ]);
  });
});
