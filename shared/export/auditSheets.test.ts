import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../contract/auditChannels';
import { describeAuditEntry } from '../audit/describeAuditEntry';
import { AUDIT_COLUMNS, auditCsv, auditWorkbook } from './auditSheets';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  seq: 1,
  at: '2026-11-25T09:00:00.000Z',
  person: 'ana',
  computer: 'PC',
  environment: 'production',
  action: 'edit',
  workspaceId: 'w1',
  uploadId: null,
  donationId: null,
  details: {},
  ...over,
});

describe('describeAuditEntry', () => {
  it('says what an edit changed, the first cells in full and how many more', () => {
    const cells = Array.from({ length: 5 }, (_, i) => ({
      row: i + 2,
      column: 'Amount',
      from: `${i}`,
      to: '',
    }));
    expect(describeAuditEntry(entry({ details: { cells, deleted: [{}] } }))).toBe(
      '5 cells changed: row 2 Amount: “0” → (empty); row 3 Amount: “1” → (empty); row 4 Amount: “2” → (empty), and 2 more cells · 1 row deleted',
    );
  });

  it('gives an upload’s amounts in their currency and a settings change in words, never a secret', () => {
    expect(
      describeAuditEntry(
        entry({
          action: 'upload',
          details: {
            rows: 1,
            totals: [{ currencyCode: 'JPY', count: 1, amount: 1500 }],
            files: [{ sha256: 'ff' }],
          },
        }),
      ),
    ).toBe('1 row: ¥1,500 in 1 row · 1 file, SHA-256 ff');
    expect(
      describeAuditEntry(
        entry({
          action: 'settings',
          details: {
            changes: [
              { setting: 'environment', from: 'sandbox', to: 'production' },
              { setting: 'production.clientSecret', change: 'replaced' },
            ],
          },
        }),
      ),
    ).toBe('Environment Sandbox → Production; Production client secret replaced');
    expect(
      describeAuditEntry(
        entry({
          action: 'settings',
          details: {
            changes: [
              { setting: 'sandbox.baseUrl', from: '', to: 'https://api.example.org' },
              { setting: 'firstRunDone', from: false, to: true },
            ],
          },
        }),
      ),
    ).toBe('Sandbox service address (empty) → “https://api.example.org”; Welcome page done: yes');
  });
});

describe('audit exports', () => {
  it('CSV: a header, one quoted row per entry, formulas neutralised', () => {
    const csv = auditCsv([entry({ person: '=SUM(A1)', details: { cells: [] } })]);
    const [head, row] = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(head).toBe(AUDIT_COLUMNS.join(','));
    expect(row).toContain(",'=SUM(A1),PC,Production,Edited cells,edit,");
  });

  it('xlsx: details longer than a cell holds are cut with a note', () => {
    const long = 'x'.repeat(40_000);
    const book = auditWorkbook(XLSX, [entry({ details: { note: long } })]);
    const read = XLSX.read(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }));
    const rows = XLSX.utils.sheet_to_json<string[]>(read.Sheets['Audit trail']!, { header: 1 });
    const details = rows[1]?.at(-1) ?? '';
    expect(details.length).toBeLessThanOrEqual(32_000);
    expect(details).toMatch(/cut here: the CSV export has it all\)$/);
  });
});
