import { neutraliseCell } from '../../../../shared/export/neutraliseCell';
import type { WorkspaceRow } from '../../../../shared/contract';
import type { MappedRow } from '../../../../shared/mapping';
import { downloadBytes } from '../../lib/downloadBytes';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function writeXlsx(sheetName: string, table: string[][]): Promise<Uint8Array> {
  const XLSX = await import('xlsx');
  // Every cell is written as text, neutralised, so nothing in it runs as a formula.
  const sheet = XLSX.utils.aoa_to_sheet(
    table.map((r) => r.map(neutraliseCell)),
    { cellDates: false },
  );
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sheetName.slice(0, 31) || 'Sheet1');
  return XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as Uint8Array;
}

const baseName = (fileName: string) => fileName.replace(/\.[^.]+$/, '');

/** The rows that still have errors, with a column saying what is wrong, to send back to a colleague. */
export async function exportInvalidRows(
  fileName: string,
  headers: string[],
  rows: readonly WorkspaceRow[],
  resultOf: (key: number) => MappedRow | undefined,
): Promise<number> {
  const table = [['Row', ...headers, 'Errors']];
  for (const row of rows) {
    const r = resultOf(row.key);
    if (!r || r.ok) continue;
    const errors = r.issues
      .filter((i) => i.severity === 'error')
      .map((i) => (i.column ? `${i.column}: ${i.message}` : i.message));
    table.push([
      String(row.rowNumber ?? 'new'),
      ...headers.map((_, c) => row.cells[c] ?? ''),
      errors.join(' | '),
    ]);
  }
  downloadBytes(`${baseName(fileName)} - rows to fix.xlsx`, await writeXlsx('Rows to fix', table), XLSX_TYPE);
  return table.length - 1;
}

/** The whole sheet as it is now, with every fix made in the app. */
export async function exportCorrectedSheet(
  fileName: string,
  sheet: string,
  headers: string[],
  rows: readonly WorkspaceRow[],
) {
  const table = [headers, ...rows.map((row) => headers.map((_, c) => row.cells[c] ?? ''))];
  downloadBytes(`${baseName(fileName)} - corrected.xlsx`, await writeXlsx(sheet, table), XLSX_TYPE);
}
