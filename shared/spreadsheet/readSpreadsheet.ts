import { WorkMonitor } from './cancellation';
import { detectFormat, usualDelimiter } from './format';
import { READ_LIMITS, type ReadLimits } from './limits';
import { arrangeSheet } from './layout/arrangeSheet';
import { readDelimited } from './text/readDelimited';
import type { SheetJSBook, SheetJSRequest, SheetJSRunner } from './sheetjs/readWithSheetJS';
import type { RawSheet, ReadSpreadsheetOptions, SpreadsheetResult } from './types';
import { FastReaderUnsupported } from './xlsx/fastReaderUnsupported';
import { repairOds } from './sheetjs/odsRepair';
import { repairXlsx } from './sheetjs/xlsxRepair';
import { checkZipInflation } from './xlsx/inflationCheck';
import { listXlsxSheets, readXlsx } from './xlsx/readXlsx';
import type { RawInflater } from './xlsx/zipArchive';

/** The sheet of a CSV, TSV or TXT file has no name of its own; this one stands in for it. */
export const TEXT_SHEET_NAME = 'Sheet1';

/**
 * SheetJS is loaded only for the files that need it (xls, ods, xlsx the fast reader declines): it is
 * most of the reader's code, and a browser worker that reads an xlsx starts faster without it.
 */
const sheetJS = () => import('./sheetjs/readWithSheetJS');

const limitsOf = (options: Pick<ReadSpreadsheetOptions, 'limits'>): Readonly<ReadLimits> =>
  options.limits ? { ...READ_LIMITS, ...options.limits } : READ_LIMITS;

/**
 * What SheetJS is given: a zip checked against the limits first (SheetJS inflates zip parts whole,
 * with no limit), and an ods repaired where SheetJS would misread it.
 */
async function prepareForSheetJS(
  bytes: Uint8Array,
  format: string,
  limits: Readonly<ReadLimits>,
): Promise<Uint8Array> {
  if (format === 'xls') return bytes;
  await checkZipInflation(bytes, limits);
  return format === 'ods' ? repairOds(bytes, limits) : repairXlsx(bytes, limits);
}

/**
 * SheetJS's book, parsed in this thread or by the caller's runner. An .xls SheetJS refuses is tried
 * once more with what Excel reads past repaired (see repairXls).
 */
async function parseBook(
  bytes: Uint8Array,
  request: SheetJSRequest,
  runner: SheetJSRunner | undefined,
  format: string,
): Promise<SheetJSBook> {
  const module = await sheetJS();
  const parse = async (input: Uint8Array) =>
    runner ? runner(input, request) : module.parseOrMessage(input, request);
  let book = await parse(bytes);
  if ('sheetJSError' in book && format === 'xls') {
    const repaired = module.repairXls(bytes);
    const again = repaired ? await parse(repaired) : book;
    if (!('sheetJSError' in again)) book = again;
  }
  if ('sheetJSError' in book) throw module.explain(new Error(book.sheetJSError));
  return book;
}

async function readWithSheetJS(
  bytes: Uint8Array,
  sheet: string | undefined,
  monitor: WorkMonitor,
  runner: SheetJSRunner | undefined,
  format: string,
): Promise<SheetRead> {
  monitor.throwIfCancelled();
  const book = await parseBook(bytes, sheet ? { sheet } : {}, runner, format);
  return (await sheetJS()).sheetFromBook(book, sheet, monitor);
}

export async function listSheets(
  bytes: Uint8Array,
  fileName: string,
  options: Pick<ReadSpreadsheetOptions, 'limits' | 'sheetJS'> = {},
): Promise<string[]> {
  const format = detectFormat(bytes, fileName);
  if (format === 'csv' || format === 'tsv' || format === 'txt') return [TEXT_SHEET_NAME];
  const limits = limitsOf(options);
  if (format === 'xlsx' || format === 'xlsm') {
    try {
      return listXlsxSheets(bytes, limits);
    } catch (error) {
      if (!(error instanceof FastReaderUnsupported)) throw error;
    }
  }
  const prepared = await prepareForSheetJS(bytes, format, limits);
  return (await parseBook(prepared, { namesOnly: true }, options.sheetJS, format)).sheetNames;
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
  limits: Readonly<ReadLimits>,
  runner: SheetJSRunner | undefined,
): Promise<SheetRead> {
  if (format === 'xlsx' || format === 'xlsm') {
    try {
      return await readXlsx(bytes, sheet, monitor, inflater, limits);
    } catch (error) {
      if (!(error instanceof FastReaderUnsupported)) throw error;
      const prepared = await prepareForSheetJS(bytes, format, limits);
      const read = await readWithSheetJS(prepared, sheet, monitor, runner, format);
      read.raw.warnings.push(`Read with the slower general reader because ${error.message}.`);
      return read;
    }
  }
  const prepared = await prepareForSheetJS(bytes, format, limits);
  return readWithSheetJS(prepared, sheet, monitor, runner, format);
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
    const text = await readDelimited(bytes, usualDelimiter(format), monitor, limitsOf(options));
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
  const read = await readWorkbook(
    bytes,
    format,
    options.sheet,
    monitor,
    options.inflater,
    limitsOf(options),
    options.sheetJS,
  );
  monitor.throwIfCancelled();
  return {
    format,
    sheetNames: read.sheetNames,
    sheet: read.sheet,
    ...arrangeSheet(read.raw, options.headerRow),
  };
}
