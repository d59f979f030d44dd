import type { ReadLimits } from './limits';
import type { SheetJSRunner } from './sheetjs/runner';
import type { RawInflater } from './xlsx/zipArchive';

/** File formats the importer understands; decided from the bytes first, the file name second. */
export type SpreadsheetFormat = 'xlsx' | 'xlsm' | 'xls' | 'ods' | 'csv' | 'tsv' | 'txt';

/** Encodings a delimited text file can be detected as. */
export type TextEncoding =
  'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be' | 'shift_jis' | 'windows-1252';

/** A row of cells as a person sees it, with the spreadsheet's own 1-based row number. */
export interface SheetRow {
  rowNumber: number;
  cells: string[];
}

/** A rectangle of merged cells, 1-based rows and 0-based columns, inclusive. */
export interface MergedRange {
  firstRow: number;
  lastRow: number;
  firstColumn: number;
  lastColumn: number;
}

/**
 * What a format reader hands to the layout step: every non-empty row in order (gaps in rowNumber are
 * blank rows), the merged ranges, and anything worth telling the user.
 */
export interface RawSheet {
  rows: SheetRow[];
  merges: MergedRange[];
  warnings: string[];
}

export interface ReadSpreadsheetOptions {
  /** Sheet name to read; the first sheet when absent. */
  sheet?: string;
  /** 1-based row number of the header row; detected when absent. */
  headerRow?: number;
  /** Called now and then with work done out of total work (units are arbitrary, the ratio is what counts). */
  onProgress?(done: number, total: number): void;
  /** Aborting stops the import with an ImportCancelledError. */
  signal?: AbortSignal;
  /** Alternative to `signal` for callers that keep their own flag. */
  isCancelled?(): boolean;
  /**
   * How an xlsx sheet's compressed XML is inflated: JavaScript (pako) by default; a browser passes
   * `streamInflater` (its native DecompressionStream), several times faster there.
   */
  inflater?: RawInflater;
  /** Lower limits than READ_LIMITS (tests, or a caller with less memory to give). */
  limits?: Partial<ReadLimits>;
  /**
   * Where SheetJS (xls, ods, xlsx the fast reader declines) runs: in this thread when absent. The CLI
   * passes a runner that uses a separate process with a memory limit, so a file that makes SheetJS
   * fail fatally ends in a refusal, not in the end of the program.
   */
  sheetJS?: SheetJSRunner;
}

export interface SpreadsheetResult {
  format: SpreadsheetFormat;
  sheetNames: string[];
  sheet: string;
  /** 1-based; for a two-row header, the first of the two rows. */
  headerRow: number;
  /** How many spreadsheet rows the header occupies (1, or 2 for a merged two-row header). */
  headerRowCount: number;
  headers: string[];
  rows: SheetRow[];
  totalsRow?: SheetRow;
  skippedBlankRows: number;
  encoding?: TextEncoding;
  delimiter?: string;
  warnings: string[];
}
