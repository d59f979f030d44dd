import { describe, expect, it } from 'vitest';
import { ImportCancelledError, listSheets, readSpreadsheet } from './index';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes[0] = 0xff;
  bytes[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
    bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
  }
  return bytes;
}

describe('readSpreadsheet on delimited text', () => {
  it('lists one pseudo-sheet', async () => {
    expect(await listSheets(utf8('a,b\n1,2\n'), 'gifts.csv')).toEqual(['Sheet1']);
  });

  it('finds the header below a title, skips and counts blank rows, and keeps text as typed', async () => {
    const csv = [
      'ACME Corp donations — November 2026',
      '',
      'Employee ID,Name,Email,Gift amount,Date',
      '00123,Ann Smith,ann@example.com,25.50,2026-11-03',
      '',
      '00124,"Lee, Bob",bob@example.com,"1,234.56",2026-11-04',
      ',,,,',
      '00125,Zoë,zoe@example.com,10,2026-11-05',
    ].join('\r\n');
    const result = await readSpreadsheet(utf8('\ufeff' + csv), 'November.csv');
    expect(result).toMatchObject({
      format: 'csv',
      sheet: 'Sheet1',
      encoding: 'utf-8',
      delimiter: ',',
      headerRow: 3,
      headers: ['Employee ID', 'Name', 'Email', 'Gift amount', 'Date'],
      skippedBlankRows: 2,
    });
    expect(result.rows).toEqual([
      { rowNumber: 4, cells: ['00123', 'Ann Smith', 'ann@example.com', '25.50', '2026-11-03'] },
      { rowNumber: 6, cells: ['00124', 'Lee, Bob', 'bob@example.com', '1,234.56', '2026-11-04'] },
      { rowNumber: 8, cells: ['00125', 'Zoë', 'zoe@example.com', '10', '2026-11-05'] },
    ]);
    expect(result.warnings.join(' ')).toContain('Rows 1–2 above the header');
  });

  it.each([['Total,,30'], ['Grand total,,30'], ['TOTALS:,,30'], [',,30']])(
    'sets the totals row %j aside',
    async (totals) => {
      const result = await readSpreadsheet(utf8(`ID,Name,Amount\n1,Ann,10\n2,Bob,20\n${totals}\n`), 'g.csv');
      expect(result.rows.map((r) => r.rowNumber)).toEqual([2, 3]);
      expect(result.totalsRow?.rowNumber).toBe(4);
    },
  );

  it('does not mistake an ordinary last row for totals', async () => {
    const result = await readSpreadsheet(utf8('ID,Name,Amount\n1,Ann,10\n2,Bob,20\n3,Cy,30\n'), 'g.csv');
    expect(result.totalsRow).toBeUndefined();
    expect(result.rows).toHaveLength(3);
  });

  it('names empty headers by column and makes duplicates unique', async () => {
    const result = await readSpreadsheet(utf8('Amount,,Amount,amount,Amount (2)\n1,2,3,4,5\n'), 'g.csv');
    expect(result.headers).toEqual(['Amount', 'Column B', 'Amount (3)', 'amount (4)', 'Amount (2)']);
  });

  it('reads semicolons, tabs and pipes, UTF-16 and Windows-1252', async () => {
    const semicolon = await readSpreadsheet(utf8('Name;Amount\nAnn;1,5\n'), 'g.csv');
    expect(semicolon).toMatchObject({ delimiter: ';', rows: [{ cells: ['Ann', '1,5'] }] });
    const tab = await readSpreadsheet(utf16le('Name\tAmount\r\nCafé\t€5\r\n'), 'g.txt');
    expect(tab).toMatchObject({
      format: 'txt',
      delimiter: '\t',
      encoding: 'utf-16le',
      rows: [{ cells: ['Café', '€5'] }],
    });
    const pipe = await readSpreadsheet(
      new Uint8Array([...utf8('Name|Amount\n'), 0x43, 0x61, 0x66, 0xe9, 0x7c, 0x80, 0x35]),
      'g.csv',
    );
    expect(pipe).toMatchObject({
      delimiter: '|',
      encoding: 'windows-1252',
      rows: [{ cells: ['Café', '€5'] }],
    });
  });

  it('names the detected encoding in the notes: Shift-JIS and UTF-32', async () => {
    // "氏名,金額 / 山田 太郎,5000" saved as Shift-JIS.
    const shiftJis = new Uint8Array([
      0x8e, 0x81, 0x96, 0xbc, 0x2c, 0x8b, 0xe0, 0x8a, 0x7a, 0x0d, 0x0a, 0x8e, 0x52, 0x93, 0x63, 0x20, 0x91,
      0xbe, 0x98, 0x59, 0x2c, 0x35, 0x30, 0x30, 0x30, 0x0d, 0x0a,
    ]);
    expect(await readSpreadsheet(shiftJis, 'payroll.csv')).toMatchObject({
      encoding: 'shift_jis',
      headers: ['氏名', '金額'],
      rows: [{ rowNumber: 2, cells: ['山田 太郎', '5000'] }],
      warnings: ['The file is not UTF-8; it was read as Shift-JIS (Japanese). Check names and other text.'],
    });
    const text = '\ufeffName,Amount\r\nZoë,5\r\n';
    const utf32 = new Uint8Array(text.length * 4);
    [...text].forEach((ch, i) => new DataView(utf32.buffer).setUint32(i * 4, ch.codePointAt(0) ?? 0, true));
    expect(await readSpreadsheet(utf32, 'gifts.csv')).toMatchObject({
      encoding: 'utf-32le',
      headers: ['Name', 'Amount'],
      rows: [{ rowNumber: 2, cells: ['Zoë', '5'] }],
      warnings: ['The file was read as UTF-32 (little-endian).'],
    });
  });

  it('keeps quoted newlines inside a cell and numbers rows by record', async () => {
    const result = await readSpreadsheet(utf8('Name,Note\nAnn,"two\nlines"\nBob,x\n'), 'g.csv');
    expect(result.rows).toEqual([
      { rowNumber: 2, cells: ['Ann', 'two\nlines'] },
      { rowNumber: 3, cells: ['Bob', 'x'] },
    ]);
  });

  it('honours an explicit header row', async () => {
    const result = await readSpreadsheet(utf8('Report\nA,B\n1,2\n'), 'g.csv', { headerRow: 3 });
    expect(result.headers).toEqual(['1', '2']);
    expect(result.rows).toEqual([]);
  });

  it('stops with ImportCancelledError when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      readSpreadsheet(utf8('a,b\n1,2\n'), 'g.csv', { signal: controller.signal }),
    ).rejects.toBeInstanceOf(ImportCancelledError);
    await expect(
      readSpreadsheet(utf8('a,b\n1,2\n'), 'g.csv', { isCancelled: () => true }),
    ).rejects.toMatchObject({
      code: 'IMPORT_CANCELLED',
    });
  });

  it('explains an empty file', async () => {
    await expect(readSpreadsheet(new Uint8Array(0), 'g.csv')).rejects.toMatchObject({
      code: 'SPREADSHEET_UNREADABLE',
    });
  });
});

describe('header detection', () => {
  it.each([
    [
      'a blank title over all-text data',
      'Name,Email,,Team\nAnn,ann@x.org,red,North\nBob,bob@x.org,blue,South\n',
      1,
    ],
    [
      'a two-line title block',
      'Donations report\nPrepared by: Finance\n\nID,Name,Amount\n1,Ann,5\n2,Bob,6\n',
      4,
    ],
    [
      'a report date above',
      'Report date,2026-11-30\nID,Name,Amount,Date\n1,Ann,5,2026-11-01\n2,Bob,6,2026-11-02\n',
      2,
    ],
  ])('finds the header under %s', async (_name, csv, headerRow) => {
    const result = await readSpreadsheet(new TextEncoder().encode(csv), 'h.csv');
    expect(result.headerRow).toBe(headerRow);
  });
});
