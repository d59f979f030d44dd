import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  readSpreadsheet,
  TEXT_SHEET_NAME,
  type SheetRow,
  type SpreadsheetFormat,
  type TextEncoding,
} from '../../../shared/spreadsheet';
import { detectFormat, usualDelimiter } from '../../../shared/spreadsheet/format';
import { isBlankRow } from '../../../shared/spreadsheet/layout/cellKinds';
import {
  SheetSurvey,
  TotalsDecider,
  type SurveyedSheet,
} from '../../../shared/spreadsheet/layout/sheetSurvey';
import { ENCODING_NOTES } from '../../../shared/spreadsheet/text/readDelimited';
import { FastReaderUnsupported } from '../../../shared/spreadsheet/xlsx/fastReaderUnsupported';
import { openXlsxSheet, type XlsxSheetReader } from '../../../shared/spreadsheet/xlsx/readXlsx';
import { cliSheetJS } from '../sheetInput';
import { openCsvStream, readHead, type CsvStream } from './csvStream';

/**
 * Files from this size on are read in passes, a piece at a time, never whole; smaller ones are read
 * whole as the app reads them (the same rows either way; a test holds the two to each other).
 */
export const STREAM_FROM_BYTES = 32 * 1024 * 1024;

/** What the sheet looks like, known before its rows are checked. */
export interface SheetLayout {
  fileName: string;
  format: SpreadsheetFormat;
  sheetNames: string[];
  sheet: string;
  headerRow: number;
  headerRowCount: number;
  headers: string[];
  skippedBlankRows: number;
  warnings: string[];
  /** The first data rows (2,000 or more), for the mapping's suggestion and the number style. */
  samples: SheetRow[];
  /** Data rows at most (a totals row set aside later is among them). */
  dataRows: number;
  encoding?: TextEncoding;
  delimiter?: string;
  /** Whether the file is read in passes (false: read whole, as the app reads it). */
  streamed: boolean;
}

export interface PassHooks {
  /** After each piece: `done` out of `total` (bytes, or rows for a file read whole). */
  between(done: number, total: number): Promise<void>;
}

export interface RowSource {
  layout: SheetLayout;
  /**
   * One pass over the data rows in order, padded to the headers' width, a totals row left out (and
   * handed to `onTotals` when given).
   */
  eachRow(
    onRow: (row: SheetRow) => void,
    hooks: PassHooks,
    onTotals?: (row: SheetRow) => void,
  ): Promise<void>;
}

export interface OpenOptions {
  sheet?: string;
  headerRow?: number;
  /** Files at least this large are streamed (default STREAM_FROM_BYTES). */
  streamFrom?: number;
  /** The survey pass of a streamed file reports here (`row` for each row read). */
  survey: PassHooks & { row?(): void };
}

/** A whole file read as the app reads it, through readSpreadsheet (every format). */
async function wholeSource(bytes: Uint8Array, fileName: string, options: OpenOptions): Promise<RowSource> {
  const sheet = await readSpreadsheet(bytes, fileName, {
    sheetJS: cliSheetJS,
    // Limits on rows and cells are the app's (what a workspace holds); checking a file holds nothing.
    limits: { maxRows: Number.POSITIVE_INFINITY, maxCells: Number.POSITIVE_INFINITY },
    ...(options.sheet ? { sheet: options.sheet } : {}),
    ...(options.headerRow ? { headerRow: options.headerRow } : {}),
  });
  const layout: SheetLayout = {
    fileName,
    format: sheet.format,
    sheetNames: sheet.sheetNames,
    sheet: sheet.sheet,
    headerRow: sheet.headerRow,
    headerRowCount: sheet.headerRowCount,
    headers: sheet.headers,
    skippedBlankRows: sheet.skippedBlankRows,
    warnings: sheet.warnings,
    // All of them: the number style looks past rows whose amount is blank, as the app's check does.
    samples: sheet.rows,
    dataRows: sheet.rows.length,
    ...(sheet.encoding ? { encoding: sheet.encoding } : {}),
    ...(sheet.delimiter ? { delimiter: sheet.delimiter } : {}),
    streamed: false,
  };
  return {
    layout,
    async eachRow(onRow, hooks, onTotals) {
      const rows = sheet.rows;
      for (let i = 0; i < rows.length; i++) {
        onRow(rows[i]!);
        if ((i & 4095) === 4095) await hooks.between(i + 1, rows.length);
      }
      if (sheet.totalsRow) onTotals?.(sheet.totalsRow);
      await hooks.between(rows.length, rows.length);
    },
  };
}

/** Rows of a streamed pass that are data: below the header, not blank, padded; the totals row aside. */
function dataRowFilter(
  survey: SurveyedSheet,
  onRow: (row: SheetRow) => void,
  onTotals?: (row: SheetRow) => void,
): (row: SheetRow) => void {
  const width = survey.headers.length;
  const totals = survey.totals;
  const decider = totals && !totals.decided ? new TotalsDecider(totals) : undefined;
  return (row) => {
    if (row.rowNumber <= survey.headerEnd || isBlankRow(row.cells)) return;
    if (totals && row.rowNumber === totals.rowNumber) {
      if (!totals.decided && decider) {
        totals.decided = true;
        if (decider.isTotals()) {
          survey.warnings.push(
            `Row ${totals.rowNumber} looks like a totals row; it was set aside, not imported as a donation.`,
          );
        } else survey.totals = undefined;
      }
      if (survey.totals) {
        if (onTotals) {
          const cells = [...row.cells];
          if (cells.length > width) cells.length = width;
          while (cells.length < width) cells.push('');
          onTotals({ ...row, cells });
        }
        return;
      }
    } else decider?.add(row);
    const cells = row.cells;
    if (cells.length > width) cells.length = width;
    while (cells.length < width) cells.push('');
    onRow(row);
  };
}

function streamedLayout(
  fileName: string,
  format: SpreadsheetFormat,
  sheetNames: string[],
  sheet: string,
  survey: SurveyedSheet,
  extra: Partial<SheetLayout>,
): SheetLayout {
  return {
    fileName,
    format,
    sheetNames,
    sheet,
    headerRow: survey.headerRow,
    headerRowCount: survey.headerRowCount,
    headers: survey.headers,
    skippedBlankRows: survey.skippedBlankRows,
    warnings: survey.warnings,
    samples: survey.samples,
    dataRows: survey.dataRows,
    ...extra,
    streamed: true,
  };
}

async function csvSource(
  csv: CsvStream,
  fileName: string,
  format: SpreadsheetFormat,
  options: OpenOptions,
): Promise<RowSource> {
  let survey = new SheetSurvey(options.headerRow);
  await csv.pass(() => {
    survey = new SheetSurvey(options.headerRow);
    return {
      onRow: (row) => {
        survey.add(row);
        options.survey.row?.();
      },
      between: options.survey.between,
    };
  });
  const surveyed = survey.finish([]);
  const note = ENCODING_NOTES[csv.encoding];
  if (note) surveyed.warnings.unshift(note);
  return {
    layout: streamedLayout(fileName, format, [TEXT_SHEET_NAME], TEXT_SHEET_NAME, surveyed, {
      encoding: csv.encoding,
      delimiter: csv.delimiter,
    }),
    async eachRow(onRow, hooks, onTotals) {
      const filter = dataRowFilter(surveyed, onRow, onTotals);
      await csv.pass(() => ({ onRow: filter, between: hooks.between }));
    },
  };
}

async function xlsxSource(
  reader: XlsxSheetReader,
  fileName: string,
  format: SpreadsheetFormat,
  options: OpenOptions,
): Promise<RowSource> {
  const survey = new SheetSurvey(options.headerRow);
  const raw = await reader.scan((row) => {
    survey.add(row);
    options.survey.row?.();
  }, options.survey.between);
  const surveyed = survey.finish(raw.merges);
  surveyed.warnings.unshift(...raw.warnings);
  return {
    layout: streamedLayout(fileName, format, reader.sheetNames, reader.sheet, surveyed, {}),
    async eachRow(onRow, hooks, onTotals) {
      await reader.scan(dataRowFilter(surveyed, onRow, onTotals), hooks.between);
    },
  };
}

/**
 * Opens a spreadsheet for checking in passes. CSV, TSV, TXT and xlsx/xlsm at least `streamFrom`
 * bytes are streamed: a first pass surveys the layout (header, width, totals row), and each later
 * pass hands out the data rows one at a time; memory does not grow with the file. Other formats,
 * and smaller files, are read whole as the app reads them. Throws SpreadsheetReadError.
 */
export async function openRowSource(path: string, options: OpenOptions): Promise<RowSource> {
  const fileName = basename(path);
  const size = (await stat(path)).size;
  const streamFrom = options.streamFrom ?? STREAM_FROM_BYTES;
  if (size >= streamFrom) {
    const format = detectFormat(await readHead(path, 512), fileName);
    if (format === 'csv' || format === 'tsv' || format === 'txt') {
      const csv = await openCsvStream(path, size, usualDelimiter(format));
      if (csv) return csvSource(csv, fileName, format, options);
    } else if (format === 'xlsx' || format === 'xlsm') {
      const bytes = new Uint8Array(await readFile(path));
      try {
        const reader = await openXlsxSheet(bytes, options.sheet);
        return await xlsxSource(reader, fileName, format, options);
      } catch (error) {
        if (!(error instanceof FastReaderUnsupported)) throw error;
      }
      return wholeSource(bytes, fileName, options);
    }
  }
  return wholeSource(new Uint8Array(await readFile(path)), fileName, options);
}
