import type * as XLSX from 'xlsx';

/**
 * What the reader needs of a workbook SheetJS parsed: plain data, so that the parsing can happen in
 * another process (SheetJSRunner) and be sent back.
 */
export interface SheetJSBook {
  sheetNames: string[];
  date1904: boolean;
  /** The asked sheet's dense cells (absent when only names were asked). */
  cells?: (XLSX.CellObject | undefined)[][];
  merges?: XLSX.Range[];
}

/** What is asked of SheetJS: only the sheet names, or one sheet (the first when none is named). */
export interface SheetJSRequest {
  sheet?: string;
  namesOnly?: boolean;
}

/**
 * Runs SheetJS somewhere else (in the CLI, a separate process with a memory limit): resolves to the
 * book, or to `{ sheetJSError }` with SheetJS's message when it threw; rejects with a
 * SpreadsheetReadError that says what to do when the process died or ran out of time.
 */
export type SheetJSRunner = (
  bytes: Uint8Array,
  request: SheetJSRequest,
) => Promise<SheetJSBook | { sheetJSError: string }>;
