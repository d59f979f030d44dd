import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import {
  ImportCancelledError,
  javaScriptInflater,
  listSheets,
  readSpreadsheet,
  streamInflater,
} from './index';
import { buildXlsx } from './testing/zipWriter';

type BookType = 'xlsx' | 'xls' | 'ods';

function workbook(sheets: Record<string, XLSX.WorkSheet>, date1904 = false): XLSX.WorkBook {
  const book = XLSX.utils.book_new();
  for (const [name, sheet] of Object.entries(sheets)) XLSX.utils.book_append_sheet(book, sheet, name);
  if (date1904) book.Workbook = { WBProps: { date1904: true } };
  return book;
}

const write = (book: XLSX.WorkBook, bookType: BookType): Uint8Array =>
  new Uint8Array(XLSX.write(book, { type: 'array', bookType, bookSST: true }) as ArrayBuffer);

/** A month-end sheet as finance staff make them: title, blank line, two-row merged header, totals. */
function monthEndSheet(): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet(
    [
      ['ACME Corp donations — November 2026'],
      [],
      ['Employee ID', 'Donor', null, 'Gift amount', 'Date', 'Receipted', 'Check'],
      [null, 'Name', 'Email'],
      ['00123', 'Ann Smith', 'ann@example.com', 0.1 + 0.2, new Date(Date.UTC(2026, 10, 3)), true, null],
      [],
      [
        '00124',
        'Bob & Co <Ltd>',
        'bob@example.com',
        12.5,
        new Date(Date.UTC(2026, 10, 4, 13, 30)),
        false,
        null,
      ],
      ['Total', null, null, 12.8],
    ],
    { cellDates: true },
  );
  sheet['!merges'] = [
    { s: { r: 0, c: 0 }, e: { r: 0, c: 6 } },
    { s: { r: 2, c: 1 }, e: { r: 2, c: 2 } },
    { s: { r: 2, c: 0 }, e: { r: 3, c: 0 } },
  ];
  // A formula with its cached value, as Excel saves it.
  sheet['G5'] = { t: 'n', v: 3, f: '1+2' };
  sheet['G7'] = { t: 's', v: 'ok', f: '"o"&"k"' };
  return sheet;
}

describe.each<BookType>(['xlsx', 'xls', 'ods'])('readSpreadsheet on %s', (bookType) => {
  const bytes = write(
    workbook({ Notes: XLSX.utils.aoa_to_sheet([['x']]), Donations: monthEndSheet() }),
    bookType,
  );

  it('lists the sheets in workbook order', async () => {
    expect(await listSheets(bytes, `gifts.${bookType}`)).toEqual(['Notes', 'Donations']);
  });

  it('reads a two-row merged header under a title, dates, formulas, text numbers and a totals row', async () => {
    const copy = bytes.slice();
    const result = await readSpreadsheet(bytes, `gifts.${bookType}`, { sheet: 'Donations' });
    expect(bytes).toEqual(copy);
    expect(result).toMatchObject({
      format: bookType,
      sheetNames: ['Notes', 'Donations'],
      sheet: 'Donations',
      headerRow: 3,
      headerRowCount: 2,
      headers: ['Employee ID', 'Donor Name', 'Donor Email', 'Gift amount', 'Date', 'Receipted', 'Check'],
      skippedBlankRows: 1,
    });
    expect(result.rows).toEqual([
      { rowNumber: 5, cells: ['00123', 'Ann Smith', 'ann@example.com', '0.3', '2026-11-03', 'TRUE', '3'] },
      {
        rowNumber: 7,
        cells: ['00124', 'Bob & Co <Ltd>', 'bob@example.com', '12.5', '2026-11-04T13:30:00', 'FALSE', 'ok'],
      },
    ]);
    expect(result.totalsRow).toEqual({ rowNumber: 8, cells: ['Total', '', '', '12.8', '', '', ''] });
  });

  it('reads dates in the 1904 date system', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Date'], [new Date(Date.UTC(2026, 10, 3))]], { cellDates: true });
    const result = await readSpreadsheet(write(workbook({ S: sheet }, true), bookType), `d.${bookType}`);
    expect(result.rows[0]?.cells).toEqual(['2026-11-03']);
  });

  it('spreads a merged single-row header so every title is unique', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([
      ['ID', 'Amount', null, 'Note'],
      ['1', 5, 6, 'x'],
    ]);
    sheet['!merges'] = [{ s: { r: 0, c: 1 }, e: { r: 0, c: 2 } }];
    const result = await readSpreadsheet(write(workbook({ S: sheet }), bookType), `m.${bookType}`);
    expect(result.headers).toEqual(['ID', 'Amount', 'Amount (2)', 'Note']);
  });

  it('says which sheets exist when the requested one does not', async () => {
    await expect(readSpreadsheet(bytes, `gifts.${bookType}`, { sheet: 'Nope' })).rejects.toThrow(
      /Notes, Donations/,
    );
  });
});

describe('fast xlsx reader on hand-made XML', () => {
  it('reads inline and rich text, entities, escapes, errors, styles, gaps and prefixes it can ignore', async () => {
    const bytes = buildXlsx({
      sheetName: 'R&amp;D &quot;gifts&quot;',
      sharedStrings:
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Name</t></si>' +
        '<si><r><rPr><b/></rPr><t xml:space="preserve">Rich </t></r><r><t>text</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></si>' +
        '<si><t>Line_x000D_break &amp; &#8364;</t></si><si><t/></si><si><t>Amount</t></si><si><t>When</t></si></sst>',
      sheetBody:
        '<dimension ref="A1:E4"/><sheetData>' +
        '<row r="1" spans="1:5"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>4</v></c><c r="C1" t="s"><v>5</v></c><c r="D1" t="inlineStr"><is><t>Time</t></is></c><c r="E1" t="inlineStr"><is><t>Flag</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="0"><v>1234.5600000000002</v></c><c r="C2" s="2"><v>46329.75</v></c><c r="D2" s="3"><v>0.5</v></c><c r="E2" t="e"><f>1/0</f><v>#DIV/0!</v></c></row>' +
        '<row r="3"/>' +
        '<row r="4"><c r="A4" t="s"><v>2</v></c><c r="C4" s="1"><f>TODAY()</f><v>46329</v></c><c r="D4" t="str"><f>A1</f><v>a &lt;b&gt; "c"</v></c><c r="E4" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c></row>' +
        '<row r="5"><c r="A5" t="s"><v>3</v></c><c r="B5" s="1"/></row>' +
        '</sheetData><mergeCells count="1"><mergeCell ref="D1:D1"/></mergeCells>',
    });
    const result = await readSpreadsheet(bytes, 'hand.xlsx');
    expect(result.sheetNames).toEqual(['R&D "gifts"']);
    expect(result.headers).toEqual(['Name', 'Amount', 'When', 'Time', 'Flag']);
    expect(result.rows).toEqual([
      { rowNumber: 2, cells: ['Rich text', '1234.56', '2026-11-03T18:00:00', '12:00:00', '#DIV/0!'] },
      { rowNumber: 4, cells: ['Line\rbreak & €', '', '2026-11-03', 'a <b> "c"', 'inline'] },
    ]);
    expect(result.skippedBlankRows).toBe(1);
    expect(result.warnings).toEqual([]);
  });

  it('reads SpreadsheetML with a prefix on every element on the fast path, as .NET tools write it', async () => {
    const x = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const bytes = buildXlsx({
      sheetBody: '',
      workbookXml:
        `<?xml version="1.0"?><x:workbook ${x} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
        '<x:workbookPr/><x:sheets><x:sheet name="Payroll" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>',
      sharedStrings: `<x:sst ${x}><x:si><x:t>Name</x:t></x:si><x:si><x:r><x:t>A</x:t></x:r><x:r><x:t>nn</x:t></x:r></x:si></x:sst>`,
      styles: `<x:styleSheet ${x}><x:cellXfs count="2"><x:xf numFmtId="0"/><x:xf numFmtId="14"/></x:cellXfs></x:styleSheet>`,
      sheetXml:
        `<?xml version="1.0"?><x:worksheet ${x}>` +
        '<x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>Paid on</x:t></x:is></x:c></x:row>' +
        '<x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c><x:c r="B2" s="1"><x:v>46329</x:v></x:c></x:row></x:sheetData>' +
        '<x:mergeCells count="1"><x:mergeCell ref="C1:D1"/></x:mergeCells></x:worksheet>',
    });
    const result = await readSpreadsheet(bytes, 'p.xlsx');
    expect(result.sheetNames).toEqual(['Payroll']);
    expect(result.headers).toEqual(['Name', 'Paid on']);
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann', '2026-11-03'] }]);
    expect(result.warnings).toEqual([]);
  });

  it('leaves a sheet whose prefix is bound to an unknown namespace to SheetJS, and says so', async () => {
    const bytes = buildXlsx({
      sheetBody: '',
      sheetXml:
        '<?xml version="1.0"?><x:worksheet xmlns:x="urn:example:not-spreadsheetml">' +
        '<x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>',
    });
    const result = await readSpreadsheet(bytes, 'p.xlsx');
    expect(result.warnings).toEqual([
      'Read with the slower general reader because its sheet XML uses a namespace prefix the fast reader does not know.',
    ]);
  });

  it('explains a damaged file', async () => {
    await expect(
      readSpreadsheet(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'bad.xlsx'),
    ).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
    });
  });
});

describe('progress and cancellation on a large xlsx', () => {
  const rows = Array.from({ length: 30_000 }, (_, i) => [String(i).padStart(6, '0'), `Donor ${i}`, i / 4]);
  const book = workbook({ Big: XLSX.utils.aoa_to_sheet([['ID', 'Name', 'Amount'], ...rows]) });
  const bytes = write(book, 'xlsx');

  it('reports progress up to done and reads every row', async () => {
    const reports: Array<[number, number]> = [];
    const result = await readSpreadsheet(bytes, 'big.xlsx', {
      onProgress: (done, total) => reports.push([done, total]),
    });
    expect(result.rows).toHaveLength(30_000);
    expect(result.rows[29_999]).toEqual({ rowNumber: 30_001, cells: ['029999', 'Donor 29999', '7499.75'] });
    expect(reports.at(-1)).toEqual([1, 1]);
  });

  it('stops part-way through the sheet when cancelled', async () => {
    let checks = 0;
    const reading = readSpreadsheet(bytes, 'big.xlsx', { isCancelled: () => ++checks > 3 });
    await expect(reading).rejects.toMatchObject({ name: 'ImportCancelledError', code: 'IMPORT_CANCELLED' });
    expect(checks).toBe(4);
  });

  it('stops when its AbortSignal fires while it runs', async () => {
    const controller = new AbortController();
    const reading = readSpreadsheet(bytes, 'big.xlsx', { signal: controller.signal });
    controller.abort();
    await expect(reading).rejects.toBeInstanceOf(ImportCancelledError);
  });
});

describe('with the runtime’s own inflate (streamInflater, as in the browser)', () => {
  const rows = Array.from({ length: 30_000 }, (_, i) => [String(i).padStart(6, '0'), `Dönor ${i}`, i / 4]);
  const bytes = write(
    workbook({ Big: XLSX.utils.aoa_to_sheet([['ID', 'Name', 'Amount'], ...rows]) }),
    'xlsx',
  );

  it('reads the same rows as the JavaScript inflate', async () => {
    const native = await readSpreadsheet(bytes, 'big.xlsx', { inflater: streamInflater });
    const javaScript = await readSpreadsheet(bytes, 'big.xlsx', { inflater: javaScriptInflater });
    expect(native.rows).toHaveLength(30_000);
    expect(native).toEqual(javaScript);
  });

  it('stops part-way through the sheet when cancelled', async () => {
    let checks = 0;
    const reading = readSpreadsheet(bytes, 'big.xlsx', {
      inflater: streamInflater,
      isCancelled: () => ++checks > 3,
    });
    await expect(reading).rejects.toMatchObject({ name: 'ImportCancelledError', code: 'IMPORT_CANCELLED' });
  });

  it.each([
    ['stream', streamInflater],
    ['JavaScript', javaScriptInflater],
  ])('calls damaged compressed data damaged (%s inflate)', async (_name, inflater) => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    await expect(
      inflater(
        garbage,
        () => undefined,
        () => undefined,
      ),
    ).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
    });
  });
});
