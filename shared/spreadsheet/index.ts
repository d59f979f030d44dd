/**
 * Reading a person's spreadsheet file into a table of text cells, in any JavaScript runtime (a
 * renderer Web Worker or plain Node): no Node builtins, no DOM. The input bytes are never modified.
 */
import { listSheets as listSheetsImpl, readSpreadsheet as readSpreadsheetImpl } from './readSpreadsheet';
import type { ReadSpreadsheetOptions, SpreadsheetResult } from './types';

export type {
  MergedRange,
  ReadSpreadsheetOptions,
  SheetRow,
  SpreadsheetFormat,
  SpreadsheetResult,
  TextEncoding,
} from './types';
export { ExpandsTooFarError, ImportCancelledError, SpreadsheetReadError } from './errors';
export type { SheetJSBook, SheetJSRequest, SheetJSRunner } from './sheetjs/readWithSheetJS';
export { READ_LIMITS, SHEETJS_PROCESS_LIMITS, type ReadLimits } from './limits';
export { TEXT_SHEET_NAME } from './readSpreadsheet';
export { javaScriptInflater, streamInflater, type RawInflater } from './xlsx/zipArchive';

/**
 * The names of the file's sheets in workbook order, for the sheet picker. A CSV, TSV or TXT file
 * has one pseudo-sheet, `TEXT_SHEET_NAME`. Rejects with SpreadsheetReadError when the file is unreadable.
 */
export function listSheets(
  bytes: Uint8Array,
  fileName: string,
  options: Pick<ReadSpreadsheetOptions, 'limits' | 'sheetJS'> = {},
): Promise<string[]> {
  return listSheetsImpl(bytes, fileName, options);
}

/**
 * Reads one sheet (the first unless `options.sheet` names another) as rows of text as a person
 * sees it: text kept exactly ("00123"), numbers as Excel's General format shows them (15
 * significant digits, so no 0.30000000000000004) except whole numbers in a zero-padding format
 * ("00000" shows 42 as "00042"), formulas as their cached values, dates as ISO
 * `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS` (`HH:MM:SS` for time-only formats) in either date system,
 * booleans as TRUE/FALSE, errors as Excel shows them (#N/A).
 *
 * The header row is detected below any title rows unless `options.headerRow` (1-based) is given;
 * a merged two-row header becomes one title per column ("Donor Name"); empty titles become
 * "Column C" and repeats "Amount (2)". Blank rows are skipped and counted; a totals row at the
 * bottom is returned as `totalsRow`, not among `rows`. Each row keeps the spreadsheet's own row
 * number, for messages a person can find in their file.
 *
 * Formats: xlsx/xlsm through a dedicated streaming reader (SheetJS as a fallback, noted in
 * `warnings`), xls and ods through SheetJS, csv/tsv/txt with the encoding and delimiter detected.
 * Limits (READ_LIMITS, lowered by `options.limits`) cap what a zip part and the whole file may
 * inflate to: past one, the file is refused with ExpandsTooFarError (a SpreadsheetReadError).
 * Progress goes to `options.onProgress`; `options.signal` or `options.isCancelled` stop the work
 * with an ImportCancelledError (code IMPORT_CANCELLED). Unreadable files raise SpreadsheetReadError
 * (code SPREADSHEET_UNREADABLE) whose message says what to do.
 */
export function readSpreadsheet(
  bytes: Uint8Array,
  fileName: string,
  options: ReadSpreadsheetOptions = {},
): Promise<SpreadsheetResult> {
  return readSpreadsheetImpl(bytes, fileName, options);
}
