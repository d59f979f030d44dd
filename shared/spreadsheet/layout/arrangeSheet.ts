import { SpreadsheetReadError } from '../errors';
import type { RawSheet, SheetRow } from '../types';
import { isBlankCell, isBlankRow } from './cellKinds';
import { clipMerges } from './clipMerges';
import { detectHeaderIndex } from './detectHeader';
import { buildHeaderNames, isSecondHeaderRow } from './headerNames';
import { isTotalsRow } from './totalsRow';

export interface ArrangedSheet {
  headerRow: number;
  headerRowCount: number;
  headers: string[];
  rows: SheetRow[];
  totalsRow?: SheetRow;
  skippedBlankRows: number;
  warnings: string[];
}

function usedWidth(cells: readonly string[]): number {
  let width = cells.length;
  while (width > 0 && isBlankCell(cells[width - 1])) width--;
  return width;
}

function fitToWidth(cells: string[], width: number): void {
  if (cells.length > width) cells.length = width;
  while (cells.length < width) cells.push('');
}

function describeRows(first: number, last: number): string {
  return first === last ? `Row ${first}` : `Rows ${first}–${last}`;
}

/**
 * Turns a format reader's rows into a table: finds the header (or takes the caller's), names the
 * columns, drops blank rows (counting them) and sets a trailing totals row aside. Row arrays are
 * padded in place to the table's width rather than copied, which matters at 500k rows.
 */
export function arrangeSheet(raw: RawSheet, headerRowOption: number | undefined): ArrangedSheet {
  const warnings = [...raw.warnings];
  const filled = raw.rows.filter((row) => !isBlankRow(row.cells));
  if (filled.length === 0) {
    throw new SpreadsheetReadError('The sheet is empty: there is no header row and no data to import.');
  }
  const merges = clipMerges(raw.merges, filled);

  let headerIndex: number;
  if (headerRowOption === undefined) {
    headerIndex = detectHeaderIndex(filled, merges);
  } else {
    headerIndex = filled.findIndex((row) => row.rowNumber === headerRowOption);
    if (headerIndex === -1) {
      throw new SpreadsheetReadError(
        `Row ${headerRowOption} is empty or beyond the end of the sheet, so it cannot be the header row. Choose the row that holds the column titles.`,
      );
    }
  }
  const header = filled[headerIndex] as SheetRow;
  const candidateSecond = filled[headerIndex + 1];
  const second = isSecondHeaderRow(header, candidateSecond, merges) ? candidateSecond : undefined;
  const firstDataIndex = headerIndex + (second ? 2 : 1);
  if (header.rowNumber > 1 && headerIndex > 0) {
    const verb = header.rowNumber - 1 === 1 ? 'was' : 'were';
    warnings.push(`${describeRows(1, header.rowNumber - 1)} above the header ${verb} not imported.`);
  }

  const rows = filled.slice(firstDataIndex);
  let totalsRow: SheetRow | undefined;
  const last = rows[rows.length - 1];
  if (last && isTotalsRow(last, rows.slice(0, -1))) {
    totalsRow = rows.pop();
    warnings.push(
      `Row ${last.rowNumber} looks like a totals row; it was set aside, not imported as a donation.`,
    );
  }

  // Columns past the last title or value are only formatting Excel kept; they are left out.
  let width = Math.max(usedWidth(header.cells), usedWidth(second?.cells ?? []));
  for (const row of rows) width = Math.max(width, usedWidth(row.cells));
  for (const row of rows) fitToWidth(row.cells, width);
  if (totalsRow) fitToWidth(totalsRow.cells, width);
  const headers = buildHeaderNames(header, second, merges, width);

  const headerEnd = second ? second.rowNumber : header.rowNumber;
  const lastRowNumber = (totalsRow ?? last)?.rowNumber ?? headerEnd;
  const nonBlankAfterHeader = rows.length + (totalsRow ? 1 : 0);
  const skippedBlankRows = Math.max(0, lastRowNumber - headerEnd - nonBlankAfterHeader);

  return {
    headerRow: header.rowNumber,
    headerRowCount: second ? 2 : 1,
    headers,
    rows,
    ...(totalsRow ? { totalsRow } : {}),
    skippedBlankRows,
    warnings,
  };
}
