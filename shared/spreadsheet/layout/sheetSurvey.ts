import { SpreadsheetReadError } from '../errors';
import type { MergedRange, SheetRow } from '../types';
import { isBlankCell, isBlankRow, looseNumber } from './cellKinds';
import { clipMerges } from './clipMerges';
import { detectHeaderIndex } from './detectHeader';
import { buildHeaderNames, isSecondHeaderRow } from './headerNames';
import { hasTotalLabel, isSumOf, isTotalsRow, loneNumber } from './totalsRow';

/**
 * Non-blank rows kept from the top of the sheet: the header is looked for among the first 20 with
 * 10 below each, and the mapping's suggestion and number style look at the first 2,000 data rows.
 */
const KEPT_ROWS = 2_100;

function usedWidth(cells: readonly string[]): number {
  let width = cells.length;
  while (width > 0 && isBlankCell(cells[width - 1])) width--;
  return width;
}

function padded(row: SheetRow, width: number): SheetRow {
  const cells = row.cells.slice(0, width);
  while (cells.length < width) cells.push('');
  return { rowNumber: row.rowNumber, cells };
}

function describeRows(first: number, last: number): string {
  return first === last ? `Row ${first}` : `Rows ${first}–${last}`;
}

/** What a survey of the whole sheet found: the same layout arrangeSheet gives, without the rows. */
export interface SurveyedSheet {
  headerRow: number;
  headerRowCount: number;
  headers: string[];
  /** Rows up to this one are the header or above it. */
  headerEnd: number;
  skippedBlankRows: number;
  warnings: string[];
  /** The first data rows (up to 2,000), padded to the headers' width. */
  samples: SheetRow[];
  /** Non-blank rows below the header, a totals row included. */
  dataRows: number;
  /**
   * The last non-blank row, when it may be a totals row: `true` when it is one, or the column of its
   * lone number when that depends on the sum of the column above (see TotalsDecider).
   */
  totals: { rowNumber: number; decided: boolean; column: number; total: number } | undefined;
}

/**
 * The layout of a sheet too large to hold, found in one pass over its rows (arrangeSheet needs them
 * all in memory): the top rows are kept for the header and the samples, the rest only counted and
 * measured. Rows come in sheet order; `finish` takes the merged ranges, which an xlsx gives last.
 */
export class SheetSurvey {
  private readonly kept: SheetRow[] = [];
  /** Rows past the kept ones: how many, and the widest before the last. */
  private tailRows = 0;
  private tailWidth = 0;
  private last: SheetRow | undefined;
  private filledAbove = 0;
  private maxRowNumber = 0;
  private maxLength = 0;

  constructor(private readonly headerRowOption: number | undefined) {}

  add(row: SheetRow): void {
    if (isBlankRow(row.cells)) return;
    if (row.rowNumber > this.maxRowNumber) this.maxRowNumber = row.rowNumber;
    if (row.cells.length > this.maxLength) this.maxLength = row.cells.length;
    if (this.headerRowOption !== undefined && row.rowNumber < this.headerRowOption) {
      this.filledAbove++;
      return;
    }
    if (this.kept.length < KEPT_ROWS) {
      this.kept.push(row);
      return;
    }
    if (this.last) {
      const width = usedWidth(this.last.cells);
      if (width > this.tailWidth) this.tailWidth = width;
    }
    this.last = row;
    this.tailRows++;
  }

  finish(rawMerges: readonly MergedRange[]): SurveyedSheet {
    const kept = this.kept;
    if (kept.length === 0 && this.filledAbove === 0) {
      throw new SpreadsheetReadError('The sheet is empty: there is no header row and no data to import.');
    }
    const extent: SheetRow = { rowNumber: this.maxRowNumber, cells: new Array<string>(this.maxLength) };
    const merges = clipMerges(rawMerges, [extent]);
    let headerIndex = 0;
    if (this.headerRowOption === undefined) headerIndex = detectHeaderIndex(kept, merges);
    else if (kept[0]?.rowNumber !== this.headerRowOption) {
      throw new SpreadsheetReadError(
        `Row ${this.headerRowOption} is empty or beyond the end of the sheet, so it cannot be the header row. Choose the row that holds the column titles.`,
      );
    }
    const header = kept[headerIndex] as SheetRow;
    const candidateSecond = kept[headerIndex + 1];
    const second = isSecondHeaderRow(header, candidateSecond, merges) ? candidateSecond : undefined;
    const firstDataIndex = headerIndex + (second ? 2 : 1);
    const warnings: string[] = [];
    if (header.rowNumber > 1 && headerIndex + this.filledAbove > 0) {
      const verb = header.rowNumber - 1 === 1 ? 'was' : 'were';
      warnings.push(`${describeRows(1, header.rowNumber - 1)} above the header ${verb} not imported.`);
    }
    const keptData = kept.slice(firstDataIndex);
    const last = this.last ?? keptData[keptData.length - 1];
    const dataRows = keptData.length + this.tailRows;

    let totals: SurveyedSheet['totals'];
    let lastIsTotals = false;
    if (last) {
      if (this.tailRows === 0) {
        lastIsTotals = isTotalsRow(last, keptData.slice(0, -1));
        if (lastIsTotals) totals = { rowNumber: last.rowNumber, decided: true, column: -1, total: 0 };
      } else if (hasTotalLabel(last)) {
        lastIsTotals = true;
        totals = { rowNumber: last.rowNumber, decided: true, column: -1, total: 0 };
      } else {
        const lone = loneNumber(last);
        if (lone) totals = { rowNumber: last.rowNumber, decided: false, ...lone };
      }
    }
    if (totals?.decided) {
      warnings.push(
        `Row ${totals.rowNumber} looks like a totals row; it was set aside, not imported as a donation.`,
      );
    }

    // Columns past the last title or value are only formatting Excel kept; they are left out.
    let width = Math.max(usedWidth(header.cells), usedWidth(second?.cells ?? []), this.tailWidth);
    for (const row of keptData)
      if (!(lastIsTotals && row === last)) width = Math.max(width, usedWidth(row.cells));
    if (this.last && !lastIsTotals) width = Math.max(width, usedWidth(this.last.cells));
    const headers = buildHeaderNames(header, second, merges, width);

    const headerEnd = second ? second.rowNumber : header.rowNumber;
    const lastRowNumber = last?.rowNumber ?? headerEnd;
    const samples = keptData
      .filter((row) => !(lastIsTotals && row === last))
      .slice(0, 2_000)
      .map((row) => padded(row, width));
    return {
      headerRow: header.rowNumber,
      headerRowCount: second ? 2 : 1,
      headers,
      headerEnd,
      skippedBlankRows: Math.max(0, lastRowNumber - headerEnd - dataRows),
      warnings,
      samples,
      dataRows,
      totals,
    };
  }
}

/**
 * Decides, in a pass over the data rows, whether the last row (a lone number, no label) is the sum
 * of its column above: the column is added up as the rows go by, and the answer is known when the
 * last row comes.
 */
export class TotalsDecider {
  private sum = 0;
  private numbers = 0;
  private rows = 0;

  constructor(private readonly totals: { rowNumber: number; column: number; total: number }) {}

  /** Called for each data row above the last. */
  add(row: SheetRow): void {
    this.rows++;
    const value = looseNumber(row.cells[this.totals.column] ?? '');
    if (value === undefined) return;
    this.sum += value;
    this.numbers++;
  }

  isTotals(): boolean {
    return isSumOf(this.totals.total, this.sum, this.numbers, this.rows);
  }
}
