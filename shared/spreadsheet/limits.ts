/**
 * Every limit the spreadsheet reader enforces, in one place (the user guide lists them). A file past
 * one is refused with a plain message instead of taking the app's memory or its process down.
 */

const MB = 1024 * 1024;

export interface ReadLimits {
  /**
   * The most one zip part (a worksheet's XML, streamed) may inflate to. Excel's largest sheet of
   * plain numbers (1,048,576 rows of 20 columns) is about 1 GB of XML.
   */
  maxPartBytes: number;
  /**
   * The most a part read whole as text may inflate to: shared strings, workbook, styles,
   * relationships. Well under V8's longest string (about 512 million characters).
   */
  maxTextPartBytes: number;
  /** The most all the parts read from one file may inflate to together. */
  maxArchiveBytes: number;
  /**
   * The most rows a sheet may have (Excel's own limit per sheet, and the most a workspace holds).
   * Past it the reader stops at once, without reading the rest. The command line's `validate` and
   * `build` stream files of any size and set no such limit.
   */
  maxRows: number;
  /** The most cells (filled rows × columns) a sheet may have: the most a workspace holds. */
  maxCells: number;
}

export const READ_LIMITS: Readonly<ReadLimits> = Object.freeze({
  maxPartBytes: 1024 * MB,
  maxTextPartBytes: 256 * MB,
  maxArchiveBytes: 2048 * MB,
  // The same figures as MAX_WORKSPACE_ROWS and MAX_WORKSPACE_CELLS (a test holds them equal).
  maxRows: 1_048_576,
  maxCells: 16_777_216,
});

/**
 * The general reader (SheetJS: xls, ods, and the xlsx the fast reader declines) runs in a separate
 * process where the platform allows (the CLI), so that a file that makes it fail fatally (a V8
 * "invalid size" or out-of-memory abort) ends in a refusal instead of ending the program.
 */
export const SHEETJS_PROCESS_LIMITS = Object.freeze({
  /** V8 heap of the reading process (`--max-old-space-size`), in megabytes. */
  maxHeapMb: 2048,
  /** How long one read may take before the process is stopped, in milliseconds. */
  timeoutMs: 5 * 60 * 1000,
});

/** A byte count as a person reads it: "256 MB", "2 GB", "64 KB". */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * MB && bytes % (1024 * MB) === 0) return `${bytes / (1024 * MB)} GB`;
  if (bytes >= MB) return `${Math.round(bytes / MB)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
