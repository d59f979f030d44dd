// Test-only: .xls files built to show how the readers behave on damaged or unusual workbooks.
import * as XLSX from 'xlsx';

/** A plain BIFF8 workbook (as Excel 97–2003 saves it) with these rows on a sheet named Gifts. */
export function plainXls(
  rows: unknown[][] = [
    ['Name', 'Amount'],
    ['Ann', 25],
  ],
): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Gifts');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
}

/** The format id of the Document Summary Information property set ([MS-OSHARED] 2.3.3.2.2). */
const DOCUMENT_SUMMARY_FMTID = '02d5cdd59c2e1b10939708002b2cf9ae';

/**
 * A readable workbook whose Document Summary Information says its property set holds 4,294,967,295
 * properties while the stream ends after the first. SheetJS reads the properties of every .xls (in a
 * `try`) and keeps a new entry for each one it is told of, reading past the end, until V8 runs out of
 * memory and ends the whole process (Chromium's renderer too, when it runs in a worker there). No
 * `try` catches that.
 */
export function xlsThatKillsSheetJS(rows?: unknown[][]): Uint8Array {
  const cfb = XLSX.CFB.read(plainXls(rows), { type: 'array' });
  const stream = new Uint8Array(72);
  const view = new DataView(stream.buffer);
  view.setUint16(0, 0xfffe, true); // byte order
  view.setUint32(24, 1, true); // one property set
  for (let i = 0; i < 16; i++) stream[28 + i] = parseInt(DOCUMENT_SUMMARY_FMTID.slice(2 * i, 2 * i + 2), 16);
  view.setUint32(44, 48, true); // where the set starts
  view.setUint32(48, stream.length - 48, true); // the set's size
  view.setUint32(52, 0xffffffff, true); // how many properties it holds
  view.setUint32(56, 0x0d, true); // the first: TitlesOfParts…
  view.setUint32(60, 16, true); // …at offset 16 of the set
  XLSX.CFB.utils.cfb_add(cfb, '/\u0005DocumentSummaryInformation', stream);
  return new Uint8Array(XLSX.CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
}
