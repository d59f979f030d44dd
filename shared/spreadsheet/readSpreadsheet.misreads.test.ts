// Each case is a small file of our own with what made a real file read differently from what Excel
// shows.
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './index';
import { buildOds, odsRow, odsText } from './testing/odsWriter';
import { buildXlsx } from './testing/zipWriter';
import { decodeText } from './text/encoding';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

describe('read as Excel shows', () => {
  it('takes short Latin-1 text with an accented letter before an ASCII one for Windows-1252, not Shift-JIS', async () => {
    const bytes = latin1('Country,Amount\r\nRéunion,5\r\n');
    expect(decodeText(bytes).encoding).toBe('windows-1252');
    const result = await readSpreadsheet(bytes, 'gifts.csv');
    expect(result.rows[0]?.cells).toEqual(['Réunion', '5']);
    // Single accented words, each followed by an ASCII letter: none is taken for Shift-JIS.
    const words = [
      'Réunion',
      'Müller',
      'Françoise',
      'Señora',
      'Kêto',
      'Björn',
      'Zoë Ann',
      'Château',
      'Añejo',
      'Fière',
    ];
    for (const word of words)
      expect(decodeText(latin1(`Name\n${word}\n`)).encoding, word).toBe('windows-1252');
  });

  it('still reads Japanese names of two kanji as Shift-JIS', () => {
    // 田中 (0x93 0x63 0x92 0x86) and 鈴木 (0x97 0xE9 0x96 0xD8) saved as Shift-JIS.
    const bytes = Uint8Array.from([0x4e, 0x0a, 0x93, 0x63, 0x92, 0x86, 0x0a, 0x97, 0xe9, 0x96, 0xd8, 0x0a]);
    expect(decodeText(bytes)).toMatchObject({ encoding: 'shift_jis', text: 'N\n田中\n鈴木\n' });
  });

  const timeStyles =
    `<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="h:mm"/>` +
    `<numFmt numFmtId="165" formatCode="hh:mm:ss"/></numFmts>` +
    '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="18"/></cellXfs></styleSheet>';

  it('shows a time-only format on a value of a day or more as the time of day (xlsx)', async () => {
    const result = await readSpreadsheet(
      buildXlsx({
        styles: timeStyles,
        sheetBody:
          '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>A</t></is></c><c r="B1" t="inlineStr"><is><t>B</t></is></c><c r="C1" t="inlineStr"><is><t>C</t></is></c></row>' +
          '<row r="2"><c r="A2" s="1"><v>12345</v></c><c r="B2" s="2"><v>2.75</v></c><c r="C2" s="3"><v>45000.5</v></c></row></sheetData>',
      }),
      'times.xlsx',
    );
    expect(result.rows[0]?.cells).toEqual(['00:00:00', '18:00:00', '12:00:00']);
  });

  it('shows a time-only format on a value of a day or more as the time of day (xls)', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Value'], [12345.5]]);
    sheet['A2']!.z = 'h:mm';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Gifts');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
    const result = await readSpreadsheet(bytes, 'times.xls');
    expect(result.rows[0]?.cells).toEqual(['12:00:00']);
  });

  it('shows a time-only format on a value of a day or more as the time of day (ods)', async () => {
    const styles =
      '<number:time-style style:name="N1"><number:hours/><number:text>:</number:text><number:minutes number:style="long"/></number:time-style>' +
      '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>';
    const cell =
      '<table:table-cell table:style-name="ce1" office:value-type="float" office:value="12345.25"><text:p>6:00</text:p></table:table-cell>';
    const result = await readSpreadsheet(
      buildOds({ styles, rows: odsRow(odsText('Value')) + odsRow(cell) }),
      'times.ods',
    );
    expect(result.rows[0]?.cells).toEqual(['06:00:00']);
  });

  it('keeps the leading zeros a zero-padding format shows on a whole number (xlsx)', async () => {
    const styles =
      `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="00000"/></numFmts>` +
      '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>';
    const result = await readSpreadsheet(
      buildXlsx({
        styles,
        sheetBody:
          '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Employee ID</t></is></c><c r="B1" t="inlineStr"><is><t>Amount</t></is></c></row>' +
          '<row r="2"><c r="A2" s="1"><v>42</v></c><c r="B2"><v>25</v></c></row>' +
          '<row r="3"><c r="A3" s="1"><v>123456</v></c><c r="B3"><v>5</v></c></row>' +
          '<row r="4"><c r="A4" s="1"><v>7.5</v></c><c r="B4"><v>5</v></c></row></sheetData>',
      }),
      'ids.xlsx',
    );
    // Wider numbers show whole; a fraction is never rounded as the format would round it.
    expect(result.rows.map((row) => row.cells[0])).toEqual(['00042', '123456', '7.5']);
    expect(result.rows[0]?.cells[1]).toBe('25');
  });

  it('keeps the leading zeros a zero-padding format shows on a whole number (xls)', async () => {
    const sheet = XLSX.utils.aoa_to_sheet([['Employee ID'], [42]]);
    sheet['A2']!.z = '00000';
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Gifts');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
    const result = await readSpreadsheet(bytes, 'ids.xls');
    expect(result.rows[0]?.cells).toEqual(['00042']);
  });

  it('keeps the leading zeros a zero-padding format shows on a whole number (ods)', async () => {
    const styles =
      '<number:number-style style:name="N1"><number:number number:decimal-places="0" number:min-integer-digits="5"/></number:number-style>' +
      '<style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/>';
    const cell =
      '<table:table-cell table:style-name="ce1" office:value-type="float" office:value="42"><text:p>00042</text:p></table:table-cell>';
    const result = await readSpreadsheet(
      buildOds({ styles, rows: odsRow(odsText('Employee ID')) + odsRow(cell) }),
      'ids.ods',
    );
    expect(result.rows[0]?.cells).toEqual(['00042']);
  });

  it("shows a formula's logical result as TRUE or FALSE, as LibreOffice and Excel do (ods)", async () => {
    // LibreOffice stores =TRUE() and =A1>5 as the number 1 or 0 with the word it shows.
    const formula = (f: string, value: string, shown: string): string =>
      `<table:table-cell table:formula="${f}" office:value-type="float" office:value="${value}" calcext:value-type="float"><text:p>${shown}</text:p></table:table-cell>`;
    const rows =
      odsRow(
        odsText('Receipt'),
        odsText('Over five'),
        odsText('German'),
        odsText('Count'),
        odsText('Plain'),
      ) +
      odsRow(
        formula('of:=TRUE()', '1', 'TRUE'),
        formula('of:=[.A1]&gt;5', '0', 'FALSE'),
        formula('of:=WAHR()', '1', 'WAHR'),
        // A formula whose result is a number stays the number, and so does a plain 1.
        formula('of:=1', '1', '1'),
        '<table:table-cell office:value-type="float" office:value="1"><text:p>TRUE</text:p></table:table-cell>',
      );
    const result = await readSpreadsheet(buildOds({ rows }), 'logical.ods');
    expect(result.rows[0]?.cells).toEqual(['TRUE', 'FALSE', 'TRUE', '1', '1']);
  });

  it('puts cells with lowercase references in their columns', async () => {
    const result = await readSpreadsheet(
      buildXlsx({
        sheetBody:
          '<sheetData><row r="1"><c r="a1" t="inlineStr"><is><t>Name</t></is></c><c r="d1" t="inlineStr"><is><t>Amount</t></is></c></row>' +
          '<row r="2"><c r="a2" t="inlineStr"><is><t>Ann</t></is></c><c r="d2"><v>5</v></c></row></sheetData>',
      }),
      'lower.xlsx',
    );
    expect(result.headers).toEqual(['Name', 'Column B', 'Column C', 'Amount']);
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann', '', '', '5'] }]);
  });

  it('reads a row written as several <row> elements with the same number as one row', async () => {
    const result = await readSpreadsheet(
      buildXlsx({
        sheetBody:
          '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row><row r="1"><c r="B1" t="inlineStr"><is><t>Amount</t></is></c></row>' +
          '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c></row><row r="2"><c r="B2"><v>5</v></c></row></sheetData>',
      }),
      'split.xlsx',
    );
    expect(result.headers).toEqual(['Name', 'Amount']);
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann', '5'] }]);
  });

  it('reads Strict Open XML with the fast reader, durations in date cells as durations', async () => {
    const strict = 'http://purl.oclc.org/ooxml/spreadsheetml/main';
    const bytes = buildXlsx({
      sheetBody: '',
      sheetXml:
        `<?xml version="1.0"?><worksheet xmlns="${strict}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Shift</t></is></c><c r="B1" t="inlineStr"><is><t>Break</t></is></c></row>` +
        '<row r="2"><c r="A2" t="d"><v>PT24H0M0.000S</v></c><c r="B2" t="d"><v>PT1H30M15S</v></c></row></sheetData></worksheet>',
      workbookXml: `<?xml version="1.0"?><workbook xmlns="${strict}" xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships"><sheets><sheet name="Gifts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    });
    const fast = await readSpreadsheet(bytes, 'strict.xlsx');
    expect(fast.warnings).toEqual([]);
    expect(fast.rows[0]?.cells).toEqual(['24:00:00', '01:30:15']);
  });

  it('keeps the rows below a self-closing repeated empty row in place (ods)', async () => {
    const rows =
      odsRow(odsText('Name')) +
      odsRow(odsText('Ann')) +
      '<table:table-row table:number-rows-repeated="6"/>' +
      odsRow(odsText('Bob'));
    const result = await readSpreadsheet(buildOds({ rows }), 'gap.ods');
    expect(result.rows).toEqual([
      { rowNumber: 2, cells: ['Ann'] },
      { rowNumber: 9, cells: ['Bob'] },
    ]);
  });
});
