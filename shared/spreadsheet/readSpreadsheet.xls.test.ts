// Old .xls workbooks Excel opens that SheetJS once refused, each built here with the one construct.
import { describe, expect, it } from 'vitest';
import { listSheets, readSpreadsheet } from './index';
import { xlsWithUnsupportedNameToken, xlsWithZeroStringCount } from './testing/craftedXls';
import { parseOrMessage } from './sheetjs/readWithSheetJS';

const rows = [
  ['Name', 'Amount'],
  ['Ann', 25],
  ['Bob', 10],
];

describe('.xls files Excel reads', () => {
  it('reads the sheet of a workbook whose defined name holds a formula token SheetJS does not know', async () => {
    const bytes = xlsWithUnsupportedNameToken(rows);
    // SheetJS alone refuses the file.
    expect(parseOrMessage(bytes, {})).toMatchObject({ sheetJSError: 'Unsupported ELFs' });
    expect(await listSheets(bytes, 'names.xls')).toEqual(['Gifts']);
    const result = await readSpreadsheet(bytes, 'names.xls');
    expect(result.headers).toEqual(['Name', 'Amount']);
    expect(result.rows.map((row) => row.cells)).toEqual([
      ['Ann', '25'],
      ['Bob', '10'],
    ]);
  });

  it('reads a workbook whose shared-string table says it holds no strings', async () => {
    const bytes = xlsWithZeroStringCount(rows);
    expect(parseOrMessage(bytes, {})).toHaveProperty('sheetJSError');
    const result = await readSpreadsheet(bytes, 'strings.xls');
    expect(result.headers).toEqual(['Name', 'Amount']);
    expect(result.rows.map((row) => row.cells)).toEqual([
      ['Ann', '25'],
      ['Bob', '10'],
    ]);
  });
});
