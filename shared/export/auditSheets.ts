import type * as XLSX from 'xlsx';
import type { AuditEntry } from '../contract/auditChannels';
import { auditActionWord, describeAuditEntry, environmentWord } from '../audit/describeAuditEntry';
import { neutraliseCell } from './neutraliseCell';

/** The columns of an audit export: the plain words and, for the auditors' tools, the raw record. */
export const AUDIT_COLUMNS = [
  'Entry',
  'When (UTC)',
  'Person',
  'Computer',
  'Environment',
  'Action',
  'Action code',
  'What',
  'Workspace',
  'Upload',
  'Donation',
  'Details (JSON)',
] as const;

/** One row of text per entry, every cell neutralised against formula injection. */
export function auditRow(entry: AuditEntry): string[] {
  return [
    String(entry.seq),
    entry.at,
    entry.person,
    entry.computer,
    environmentWord(entry.environment),
    auditActionWord(entry.action, entry.details),
    entry.action,
    describeAuditEntry(entry),
    entry.workspaceId ?? '',
    entry.uploadId ?? '',
    entry.donationId ?? '',
    JSON.stringify(entry.details),
  ].map(neutraliseCell);
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** CSV (RFC 4180, CRLF) with a byte-order mark so spreadsheet programs read it as UTF-8. */
export function auditCsv(entries: Iterable<AuditEntry>): string {
  const lines = [AUDIT_COLUMNS.map(csvCell).join(',')];
  for (const entry of entries) lines.push(auditRow(entry).map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const XLSX_CELL_LIMIT = 32_000;

/** An xlsx workbook with one sheet, "Audit trail", every cell as text. */
export function auditWorkbook(xlsx: typeof XLSX, entries: Iterable<AuditEntry>): XLSX.WorkBook {
  const rows: string[][] = [[...AUDIT_COLUMNS]];
  for (const entry of entries) {
    const row = auditRow(entry);
    const last = row.length - 1;
    // A spreadsheet cell holds at most 32,767 characters; the CSV export keeps every detail.
    if ((row[last] ?? '').length > XLSX_CELL_LIMIT) {
      row[last] =
        `${(row[last] ?? '').slice(0, XLSX_CELL_LIMIT - 60)}… (cut here: the CSV export has it all)`;
    }
    rows.push(row);
  }
  const sheet = xlsx.utils.aoa_to_sheet(rows);
  const book = xlsx.utils.book_new();
  xlsx.utils.book_append_sheet(book, sheet, 'Audit trail');
  return book;
}
