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

/** The workbook stream of an .xls changed by `edit`, the rest of the file as it was. */
function editWorkbookStream(xls: Uint8Array, edit: (stream: Uint8Array) => Uint8Array): Uint8Array {
  const cfb = XLSX.CFB.read(xls, { type: 'array' });
  const entry = XLSX.CFB.find(cfb, 'Workbook');
  if (!entry?.content) throw new Error('No workbook stream');
  const stream = edit(Uint8Array.from(entry.content as ArrayLike<number>));
  entry.content = stream as unknown as typeof entry.content;
  entry.size = stream.length;
  return new Uint8Array(XLSX.CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
}

/** Each BIFF record of a stream: its type, where its body starts, and its length. */
function* records(stream: Uint8Array): Generator<{ type: number; body: number; length: number }> {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  for (let at = 0; at + 4 <= stream.length;) {
    const length = view.getUint16(at + 2, true);
    yield { type: view.getUint16(at, true), body: at + 4, length };
    at += 4 + length;
  }
}

/**
 * A workbook with a defined name ("Totals") whose formula is an ELF reference (PtgElfLel, a token
 * of Excel 97's natural-language formulas) that SheetJS cannot turn into text.
 */
export function xlsWithUnsupportedNameToken(rows?: unknown[][]): Uint8Array {
  return editWorkbookStream(plainXls(rows), (stream) => {
    const name = new TextEncoder().encode('Totals');
    const rgce = [0x18, 0x01, 0, 0, 0, 0];
    const body = [0, 0, 0, name.length, rgce.length, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...name, ...rgce];
    const record = new Uint8Array([0x18, 0x00, body.length & 0xff, body.length >> 8, ...body]);
    let eof = -1;
    const sheetPositions: number[] = [];
    for (const { type, body: at } of records(stream)) {
      if (type === 0x0085) sheetPositions.push(at);
      if (type === 0x000a) {
        eof = at - 4;
        break;
      }
    }
    const out = new Uint8Array(stream.length + record.length);
    out.set(stream.subarray(0, eof));
    out.set(record, eof);
    out.set(stream.subarray(eof), eof + record.length);
    // The sheets' records now start further on: their positions in the sheet list move too.
    const view = new DataView(out.buffer);
    for (const at of sheetPositions) view.setUint32(at, view.getUint32(at, true) + record.length, true);
    return out;
  });
}

/** A workbook whose shared-string table holds its strings but says it holds none (count 0). */
export function xlsWithZeroStringCount(rows?: unknown[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(
    book,
    XLSX.utils.aoa_to_sheet(
      rows ?? [
        ['Name', 'Amount'],
        ['Ann', 25],
      ],
    ),
    'Gifts',
  );
  const xls = new Uint8Array(
    XLSX.write(book, { type: 'array', bookType: 'biff8', bookSST: true }) as ArrayBuffer,
  );
  return editWorkbookStream(xls, (stream) => {
    const sst = [...records(stream)].find((record) => record.type === 0x00fc);
    if (!sst) throw new Error('No shared-string table');
    stream.fill(0, sst.body, sst.body + 8);
    return stream;
  });
}
