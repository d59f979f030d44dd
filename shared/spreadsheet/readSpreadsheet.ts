import { WorkMonitor } from './cancellation';
import { detectFormat, usualDelimiter } from './format';
import { arrangeSheet } from './layout/arrangeSheet';
import { readDelimited } from './text/readDelimited';
import type { RawSheet, ReadSpreadsheetOptions, SpreadsheetResult } from './types';
import { FastReaderUnsupported } from './xlsx/fastReaderUnsupported';
import { listXlsxSheets, readXlsx } from './xlsx/readXlsx';
import type { RawInflater } from './xlsx/zipArchive';

/** The sheet of a CSV, TSV or TXT file has no name of its own; this one stands in for it. */
export const TEXT_SHEET_NAME = 'Sheet1';

/**
 * SheetJS is loaded only for the files that need it (xls, ods, xlsx the fast reader declines): it is
 * most of the reader's code, and a browser worker that reads an xlsx starts faster without it.
 */
const sheetJS = () => import('./sheetjs/readWithSheetJS');

export async function listSheets(bytes: Uint8Array, fileName: string): Promise<string[]> {
  const format = detectFormat(bytes, fileName);
  if (format === 'csv' || format === 'tsv' || format === 'txt') return [TEXT_SHEET_NAME];
  if (format === 'xlsx' || format === 'xlsm') {
    try {
      return listXlsxSheets(bytes);
    } catch (error) {
      if (!(error instanceof FastReaderUnsupported)) throw error;
    }
  }
  return (await sheetJS()).listSheetsWithSheetJS(bytes);
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
      const read = (await sheetJS()).readWithSheetJS(bytes, sheet, monitor);
      read.raw.warnings.push(`Read with the slower general reader because ${error.message}.`);
      return read;
    }
  }
  return (await sheetJS()).readWithSheetJS(bytes, sheet, monitor);
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
