import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { listSheets, readSpreadsheet } from '../../../shared/spreadsheet';
import { nodeApartProcess } from '../core/nodeApartProcess';
import { sheetJSInChildProcess } from './sheetJSProcess';

function xls(rows: unknown[][]): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Gifts');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Other']]), 'Notes');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'biff8' }) as ArrayBuffer);
}

const refusal = {
  code: 'SPREADSHEET_UNREADABLE',
  message: expect.stringMatching(
    /^The file could not be read: the spreadsheet reader stopped .* Open it in Excel/,
  ),
};

describe('SheetJS in a separate process', () => {
  it('reads an xls there as it reads it in this thread', async () => {
    const bytes = xls([
      ['Name', 'Amount'],
      ['Ann', 25.5],
      ['Bob', 10],
    ]);
    const sheetJS = sheetJSInChildProcess();
    expect(await listSheets(bytes, 'gifts.xls', { sheetJS })).toEqual(['Gifts', 'Notes']);
    const there = await readSpreadsheet(bytes, 'gifts.xls', { sheetJS });
    const here = await readSpreadsheet(bytes, 'gifts.xls');
    expect(there).toEqual(here);
    expect(there.rows.map((row) => row.cells)).toEqual([
      ['Ann', '25.5'],
      ['Bob', '10'],
    ]);
  });

  it('passes on what SheetJS says of a file it cannot read', async () => {
    const bytes = new Uint8Array(xls([['Name']]));
    bytes.fill(0xff, 512, 4096);
    await expect(
      readSpreadsheet(bytes, 'broken.xls', { sheetJS: sheetJSInChildProcess() }),
    ).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
    });
  });

  it('refuses plainly, and this process carries on, when the reading process passes its memory limit', async () => {
    const sheetJS = sheetJSInChildProcess({
      maxHeapMb: 64,
      launch: nodeApartProcess({
        sheetJSReader: {
          source: 'const kept = []; for (;;) kept.push(new Array(100000).fill(kept.length));',
        },
      }),
    });
    await expect(readSpreadsheet(xls([['Name']]), 'gifts.xls', { sheetJS })).rejects.toMatchObject(refusal);
  });

  it('refuses plainly when the reading process aborts as V8 does on a fatal error', async () => {
    const sheetJS = sheetJSInChildProcess({
      launch: nodeApartProcess({ sheetJSReader: { source: 'process.abort();' } }),
    });
    await expect(readSpreadsheet(xls([['Name']]), 'gifts.xls', { sheetJS })).rejects.toMatchObject(refusal);
  });

  it('stops the reading process and refuses when it runs past its time', async () => {
    const sheetJS = sheetJSInChildProcess({
      timeoutMs: 500,
      launch: nodeApartProcess({ sheetJSReader: { source: 'setInterval(() => {}, 1000);' } }),
    });
    await expect(readSpreadsheet(xls([['Name']]), 'gifts.xls', { sheetJS })).rejects.toMatchObject({
      message: expect.stringContaining('stopped after 0.5 seconds'),
    });
  });
});
