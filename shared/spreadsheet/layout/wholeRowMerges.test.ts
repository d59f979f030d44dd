import { describe, expect, it } from 'vitest';
import { WorkMonitor } from '../cancellation';
import { readSpreadsheet } from '../index';
import { readWithSheetJS } from '../sheetjs/readWithSheetJS';
import { buildXlsx } from '../testing/zipWriter';
import { readXlsx } from '../xlsx/readXlsx';
import { arrangeSheet } from './arrangeSheet';
import { clipMerges } from './clipMerges';

const text = (ref: string, value: string): string =>
  `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

/**
 * A banner merged over the whole of row 1, a two-row header ("Donor" over Name and Email), and a
 * notes column merged from top to bottom (F:F), as some report generators write them.
 */
const bytes = buildXlsx({
  sheetBody:
    '<sheetData>' +
    `<row r="1">${text('A1', 'ACME donations November')}</row>` +
    `<row r="2">${text('A2', 'ID')}${text('B2', 'Donor')}${text('D2', 'Amount')}${text('F2', 'Notes')}</row>` +
    `<row r="3">${text('B3', 'Name')}${text('C3', 'Email')}</row>` +
    `<row r="4"><c r="A4"><v>1</v></c>${text('B4', 'Ann')}${text('C4', 'ann@example.com')}<c r="D4"><v>5</v></c></row>` +
    `<row r="5"><c r="A5"><v>2</v></c>${text('B5', 'Bob')}${text('C5', 'bob@example.com')}<c r="D5"><v>6</v></c></row>` +
    '</sheetData><mergeCells count="3"><mergeCell ref="1:1"/><mergeCell ref="B2:C2"/><mergeCell ref="F:F"/></mergeCells>',
});

describe('whole-row and whole-column merged ranges', () => {
  it('come out the same from the fast reader and from SheetJS', async () => {
    const fast = await readXlsx(bytes, undefined, new WorkMonitor({}));
    const reference = readWithSheetJS(bytes, undefined, new WorkMonitor({}));
    const expected = [
      { firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 16_383 },
      { firstRow: 2, lastRow: 2, firstColumn: 1, lastColumn: 2 },
      { firstRow: 1, lastRow: 1_048_576, firstColumn: 5, lastColumn: 5 },
    ];
    expect(fast.raw.merges).toEqual(expected);
    expect(reference.raw.merges).toEqual(expected);
  });

  it('are cut to the table for header detection: the banner is a title, the header has two rows', async () => {
    const expected = {
      headerRow: 2,
      headerRowCount: 2,
      headers: ['ID', 'Donor Name', 'Donor Email', 'Amount', 'Column E', 'Notes'],
      rows: [
        { rowNumber: 4, cells: ['1', 'Ann', 'ann@example.com', '5', '', ''] },
        { rowNumber: 5, cells: ['2', 'Bob', 'bob@example.com', '6', '', ''] },
      ],
      warnings: ['Row 1 above the header was not imported.'],
    };
    expect(await readSpreadsheet(bytes, 'banner.xlsx')).toMatchObject(expected);
    const reference = readWithSheetJS(bytes, undefined, new WorkMonitor({}));
    expect(arrangeSheet(reference.raw, undefined)).toMatchObject(expected);
  });

  it('are cut to the rows and columns the sheet uses, and merges beyond them left out', () => {
    const rows = [
      { rowNumber: 2, cells: ['a', 'b', 'c'] },
      { rowNumber: 9, cells: ['d'] },
    ];
    expect(
      clipMerges(
        [
          { firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 16_383 },
          { firstRow: 1, lastRow: 1_048_576, firstColumn: 1, lastColumn: 1 },
          { firstRow: 10, lastRow: 12, firstColumn: 0, lastColumn: 1 },
          { firstRow: 2, lastRow: 3, firstColumn: 5, lastColumn: 6 },
        ],
        rows,
      ),
    ).toEqual([
      { firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 2 },
      { firstRow: 1, lastRow: 9, firstColumn: 1, lastColumn: 1 },
    ]);
  });
});
