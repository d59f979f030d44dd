// Each case is a minimal workbook with the XML construct a real workbook used where the fast reader
// once read something other than what Excel shows.
import { describe, expect, it } from 'vitest';
import { listSheets, readSpreadsheet } from '../index';
import { buildXlsx } from '../testing/zipWriter';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** Styles whose cellXfs use the given number format ids, with the given custom formats. */
function styles(xfIds: number[], customFormats: Record<number, string> = {}, extra = ''): string {
  const numFmts = Object.entries(customFormats)
    .map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code}"/>`)
    .join('');
  return (
    `<styleSheet xmlns="${MAIN}"><numFmts count="${Object.keys(customFormats).length}">${numFmts}</numFmts>` +
    `<cellXfs count="${xfIds.length}">${xfIds.map((id) => `<xf numFmtId="${id}"/>`).join('')}</cellXfs>${extra}</styleSheet>`
  );
}

/** A sheet with the header "Value" in A1 and the given cell XML in A2. */
const valueSheet = (cell: string): string =>
  `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Value</t></is></c></row><row r="2">${cell}</row></sheetData>`;

async function readValue(options: Parameters<typeof buildXlsx>[0]): Promise<string | undefined> {
  const result = await readSpreadsheet(buildXlsx(options), 'case.xlsx');
  expect(result.warnings).toEqual([]);
  return result.rows[0]?.cells[0];
}

describe('the fast xlsx reader reads as Excel shows', () => {
  it('1. normalises raw CR LF and lone CR in cell text to LF before decoding _x000D_', async () => {
    const bytes = buildXlsx({
      sharedStrings:
        `<sst xmlns="${MAIN}"><si><t>Note</t></si><si><t>two\r\nlines</t></si>` +
        `<si><t>kept_x000D_\r\nCR</t></si><si><t>old\rMac</t></si></sst>`,
      sheetBody:
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Inline</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="inlineStr"><is><t>in\r\nline</t></is></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" t="str"><f>A3</f><v>f\r\nx</v></c></row>' +
        '<row r="4"><c r="A4" t="s"><v>3</v></c></row></sheetData>',
    });
    const result = await readSpreadsheet(bytes, 'crlf.xlsx');
    expect(result.rows.map((row) => row.cells)).toEqual([
      ['two\nlines', 'in\nline'],
      ['kept\r\nCR', 'f\nx'],
      ['old\nMac', ''],
    ]);
  });

  it('2. takes number formats from <numFmts> only, not from the differential formats in <dxfs>', async () => {
    const value = await readValue({
      styles: styles(
        [0, 14],
        {},
        '<dxfs count="1"><dxf><numFmt numFmtId="14" formatCode="0.00"/></dxf></dxfs>',
      ),
      sheetBody: valueSheet('<c r="A2" s="1"><v>42062</v></c>'),
    });
    expect(value).toBe('2015-02-27');
  });

  it.each([
    ['[h]:mm:ss', 10.6320601851852, '255:10:10'],
    ['[hh]:mm', 10.6320601851852, '255:10:10'],
    ['[mm]:ss', 1.5, '36:00:00'],
    ['[h]:mm:ss', 0.25, '06:00:00'],
  ])('3. shows the elapsed-time format %s of %s as the duration %s', async (code, serial, shown) => {
    const value = await readValue({
      styles: styles([0, 164], { 164: code }),
      sheetBody: valueSheet(`<c r="A2" s="1"><v>${serial}</v></c>`),
    });
    expect(value).toBe(shown);
  });

  it('3. shows the built-in elapsed format 46 ([h]:mm:ss) as a duration', async () => {
    const value = await readValue({
      styles: styles([0, 46]),
      sheetBody: valueSheet('<c r="A2" s="1"><v>1.5</v></c>'),
    });
    expect(value).toBe('36:00:00');
  });

  it('4. looks at every section of a format, also when the first is a condition', async () => {
    const value = await readValue({
      styles: styles([0, 164, 165], {
        164: '[=0]?;[&lt;4.1666][hh]:mm:ss;[hh]:mm',
        165: '[=1]&quot;one&quot;;yyyy-mm-dd',
      }),
      sheetBody:
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Value</t></is></c><c r="B1" t="inlineStr"><is><t>Date</t></is></c></row>' +
        '<row r="2"><c r="A2" s="1"><v>0.5</v></c><c r="B2" s="2"><v>46329</v></c></row></sheetData>',
    });
    expect(value).toBe('12:00:00');
    const result = await readSpreadsheet(
      buildXlsx({
        styles: styles([0, 165], { 165: '[=1]&quot;one&quot;;yyyy-mm-dd' }),
        sheetBody: valueSheet('<c r="A2" s="1"><v>46329</v></c>'),
      }),
      'sections.xlsx',
    );
    expect(result.rows[0]?.cells[0]).toBe('2026-11-03');
  });

  it.each([
    ['2014-02-14T08:27:48.765', '2014-02-14T08:27:49'],
    ['2014-02-14T08:27:48.250Z', '2014-02-14T08:27:48'],
    ['2014-12-31T23:59:59.5', '2015-01-01'],
    ['2014-02-14T00:00:00.000Z', '2014-02-14'],
    ['2014-02-14', '2014-02-14'],
  ])('5. rounds the t="d" cell %s to the second: %s', async (iso, shown) => {
    expect(await readValue({ sheetBody: valueSheet(`<c r="A2" t="d"><v>${iso}</v></c>`) })).toBe(shown);
  });

  it('6. reads CDATA sections in inline strings as their literal text', async () => {
    const value = await readValue({
      sheetBody: valueSheet(
        '<c r="A2" t="inlineStr"><is><t><![CDATA[Smith & <Sons>]]> &amp; co<![CDATA[ a_x]]></t></is></c>',
      ),
    });
    expect(value).toBe('Smith & <Sons> & co a_x');
  });

  it('7. reads the <sstItem> shared strings of Excel 2007 beta workbooks', async () => {
    const bytes = buildXlsx({
      sharedStrings: `<sst xmlns="${MAIN}"><sstItem><t>Name</t></sstItem><sstItem><r><t>A</t></r><r><t>nn</t></r></sstItem></sst>`,
      sheetBody:
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row></sheetData>',
    });
    const result = await readSpreadsheet(bytes, 'beta.xlsx');
    expect(result.headers).toEqual(['Name']);
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann'] }]);
    expect(result.warnings).toEqual([]);
  });

  it('7. says so when cells point to shared strings the workbook does not have', async () => {
    const bytes = buildXlsx({
      sharedStrings: ['Name', 'Ann'],
      sheetBody:
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Amount</t></is></c></row>' +
        '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>5</v></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>7</v></c><c r="B3"><v>6</v></c></row></sheetData>',
    });
    const result = await readSpreadsheet(bytes, 'missing.xlsx');
    expect(result.rows.map((row) => row.cells)).toEqual([
      ['Ann', '5'],
      ['', '6'],
    ]);
    expect(result.warnings).toEqual([
      '1 cell refers to text the workbook does not contain (first at A3); it was read as empty. Open the file in Excel, save it again, and import the new copy.',
    ]);
  });

  it('8. reads a package whose zip entry names use backslashes', async () => {
    const bytes = buildXlsx({
      sharedStrings: ['Name', 'Ann'],
      sheetBody:
        '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row></sheetData>',
      entryName: (path) => path.replaceAll('/', '\\'),
    });
    const result = await readSpreadsheet(bytes, 'windows.xlsx');
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann'] }]);
    expect(result.warnings).toEqual([]);
  });

  it('9. refuses bytes named .xlsx or .xlsm that are neither zip nor OLE, instead of reading them as CSV', async () => {
    const fuzzed = new TextEncoder().encode('PK\u0001\u0002 not,a,zip\nrow,two,three\n'.repeat(50));
    await expect(readSpreadsheet(fuzzed, 'Gifts.xlsx')).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
      message:
        '"Gifts.xlsx" is not an Excel workbook: its contents are not in the xlsx format (it may be damaged or renamed). Open it in Excel, save it as an Excel workbook, and import the new copy.',
    });
    await expect(listSheets(fuzzed, 'Gifts.xlsx')).rejects.toMatchObject({ code: 'SPREADSHEET_UNREADABLE' });
    // Excel's lock file: the owner's name padded with spaces and NULs.
    const lock = new Uint8Array(165);
    lock.set(new TextEncoder().encode('\u0009Ann Smith'), 0);
    await expect(readSpreadsheet(lock, '~$Gifts.xlsm')).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
      message:
        '"~$Gifts.xlsm" is the lock file Excel keeps while "Gifts.xlsm" is open, not a workbook. Choose "Gifts.xlsm" itself.',
    });
  });
});
