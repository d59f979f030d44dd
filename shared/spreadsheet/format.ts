import { SpreadsheetReadError } from './errors';
import type { SpreadsheetFormat } from './types';

/** The name without its folder (a path may use either separator). */
const baseName = (fileName: string): string =>
  fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);

/**
 * An xlsx/xlsm name on bytes that are neither zip nor OLE: Excel's own `~$` lock file (the name of
 * whoever has the workbook open), a damaged download, or a renamed file. Reading it as CSV would give
 * thousands of rows of garbage, so it is refused with what to do.
 */
function notAWorkbook(fileName: string): SpreadsheetReadError {
  const name = baseName(fileName);
  if (name.startsWith('~$')) {
    const workbook = name.slice(2);
    return new SpreadsheetReadError(
      `"${name}" is the lock file Excel keeps while "${workbook}" is open, not a workbook. Choose "${workbook}" itself.`,
    );
  }
  return new SpreadsheetReadError(
    `"${name}" is not an Excel workbook: its contents are not in the xlsx format (it may be damaged or renamed). Open it in Excel, save it as an Excel workbook, and import the new copy.`,
  );
}

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
}

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  signature.every((byte, i) => bytes[i] === byte);

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

/**
 * The format, from the bytes first: people rename files, and Excel's "CSV" may really be xlsx.
 * A zip is OpenDocument when its first entry is the ODF mimetype, otherwise OOXML. An OLE
 * compound file is xls (or an encrypted xlsx, which SheetJS recognises and reports). Other bytes
 * named xlsx or xlsm are refused (SpreadsheetReadError).
 */
export function detectFormat(bytes: Uint8Array, fileName: string): SpreadsheetFormat {
  const extension = extensionOf(fileName);
  if (startsWith(bytes, ZIP)) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(30, 30 + 8 + ODS_MIMETYPE.length));
    if (head.includes(ODS_MIMETYPE) || extension === 'ods') return 'ods';
    return extension === 'xlsm' ? 'xlsm' : 'xlsx';
  }
  if (startsWith(bytes, OLE)) return 'xls';
  if (extension === 'xlsx' || extension === 'xlsm') throw notAWorkbook(fileName);
  // Old Excel also saves HTML and XML "spreadsheets" with an .xls name; SheetJS reads them.
  if (extension === 'xls' || extension === 'ods') return extension;
  if (extension === 'tsv' || extension === 'txt') return extension;
  return 'csv';
}

/** The delimiter a text format usually has, preferred when detection is undecided. */
export function usualDelimiter(format: SpreadsheetFormat): string {
  return format === 'tsv' || format === 'txt' ? '\t' : ',';
}
