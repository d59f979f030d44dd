import { WorkMonitor } from './cancellation';
import { detectFormat, usualDelimiter } from './format';
import { arrangeSheet } from './layout/arrangeSheet';
import { listSheetsWithSheetJS, readWithSheetJS } from './sheetjs/readWithSheetJS';
import { readDelimited } from './text/readDelimited';
import type { RawSheet, ReadSpreadsheetOptions, SpreadsheetResult } from './types';
import { FastReaderUnsupported } from './xlsx/fastReaderUnsupported';
import { listXlsxSheets, readXlsx } from './xlsx/readXlsx';
import type { RawInflater } from './xlsx/zipArchive';

/** The sheet of a CSV, TSV or TXT file has no name of its own; this one stands in for it. */
export const TEXT_SHEET_NAME = 'Sheet1';

export function listSheets(bytes: Uint8Array, fileName: string): string[] {
  const format = detectFormat(bytes, fileName);
  if (format === 'csv' || format === 'tsv' || format === 'txt') return [TEXT_SHEET_NAME];
  if (format === 'xlsx' || format === 'xlsm') {
    try {
      return listXlsxSheets(bytes);
    } catch (error) {
      if (!(error instanceof FastReaderUnsupported)) throw error;
    }
  }
  return listSheetsWithSheetJS(bytes);
}

interface SheetRead {
  sheetNames: string[];
  sheet: string;
  raw: RawSheet;
}

async function readWorkbook(
  bytes: Uint8Array,
  format: 'xlsx' | 'xlsm' | 'xls' | 'ods',
  sheet: string | undefined,
  monitor: WorkMonitor,
  inflater: RawInflater | undefined,
): Promise<SheetRead> {
  if (format === 'xlsx' || format === 'xlsm') {
    try {
      return await readXlsx(bytes, sheet, monitor, inflater);
    } catch (error) {
      if (!(error instanceof FastReaderUnsupported)) throw error;
      const read = readWithSheetJS(bytes, sheet, monitor);
      read.raw.warnings.push(`Read with the slower general reader because ${error.message}.`);
      return read;
    }
  }
  return readWithSheetJS(bytes, sheet, monitor);
}

export async function readSpreadsheet(
  bytes: Uint8Array,
  fileName: string,
  options: ReadSpreadsheetOptions = {},
): Promise<SpreadsheetResult> {
  const monitor = new WorkMonitor(options);
  monitor.throwIfCancelled();
  const format = detectFormat(bytes, fileName);
  if (format === 'csv' || format === 'tsv' || format === 'txt') {
    const text = await readDelimited(bytes, usualDelimiter(format), monitor);
    const arranged = arrangeSheet(text, options.headerRow);
    return {
      format,
      sheetNames: [TEXT_SHEET_NAME],
      sheet: TEXT_SHEET_NAME,
      ...arranged,
      encoding: text.encoding,
      delimiter: text.delimiter,
    };
  }
  const read = await readWorkbook(bytes, format, options.sheet, monitor, options.inflater);
  monitor.throwIfCancelled();
  return {
    format,
    sheetNames: read.sheetNames,
    sheet: read.sheet,
    ...arrangeSheet(read.raw, options.headerRow),
  };
}
