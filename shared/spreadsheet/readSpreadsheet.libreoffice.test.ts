// Files written by a real program, LibreOffice Calc (test/fixtures/libreoffice, README there): the
// sample saved in each format reads as the original does, and a sheet of number formats reads the
// same from each format, as the reader's rules say (index.ts) and, where those keep what a person
// sees, as LibreOffice itself shows it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './index';

const folder = join(process.cwd(), 'test', 'fixtures', 'libreoffice');
const read = (name: string) => readSpreadsheet(new Uint8Array(readFileSync(join(folder, name))), name);

describe('files saved by LibreOffice Calc', () => {
  it('read the sample as the original: the same headers, rows and row numbers in xlsx, xls, ods and csv', async () => {
    const original = await readSpreadsheet(
      new Uint8Array(readFileSync(join(process.cwd(), 'assets', 'sample-donations.xlsx'))),
      'sample-donations.xlsx',
    );
    expect(original.rows.length).toBeGreaterThan(30);
    for (const name of ['sample.xlsx', 'sample.xls', 'sample.ods', 'sample.csv']) {
      const saved = await read(name);
      expect(saved.headers, name).toEqual(original.headers);
      expect(
        saved.rows.map((row) => [row.rowNumber, ...row.cells]),
        name,
      ).toEqual(original.rows.map((row) => [row.rowNumber, ...row.cells]));
    }
  });

  it('read a sheet of number formats the same way from xlsx, xls and ods', async () => {
    const expected: Record<string, string> = {
      thousands: '1234.5',
      currency: '1234.5',
      percent: '0.125',
      'iso date': '2023-07-16',
      'long date': '2023-07-16',
      'us date': '2023-07-16',
      time: '12:00:00',
      'date time': '2023-07-16T18:00:00',
      duration: '36:00:00',
      'leading zeros text': '00123',
      'big integer': '123456789012',
      scientific: '12300000000',
      'negative parens': '-1234.5',
      fraction: '0.5',
      accents: 'Réunion – Zürich',
      'general float': '0.3',
      'general int': '42',
      formula: '84',
      'time only big': '06:00:00',
      'zero padded num': '00007',
      'text number': '1,234.50',
      // The formula TRUE(), which LibreOffice stores in ods as the number 1 showing TRUE.
      boolean: 'TRUE',
    };
    for (const name of ['formats.xlsx', 'formats.xls', 'formats.ods']) {
      const sheet = await read(name);
      const got = Object.fromEntries(sheet.rows.map((row) => [row.cells[0], row.cells[1]]));
      expect(got, name).toEqual(expected);
    }
  });

  it('keep what LibreOffice shows for text and for numbers padded with zeros', async () => {
    const shown = Object.fromEntries(
      readFileSync(join(folder, 'formats-as-shown.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => [
          line.slice(0, line.indexOf(',')),
          line.slice(line.indexOf(',') + 1).replace(/^"|"$/g, ''),
        ]),
    );
    const sheet = await read('formats.xlsx');
    const got = Object.fromEntries(sheet.rows.map((row) => [row.cells[0], row.cells[1]]));
    for (const kind of [
      'leading zeros text',
      'zero padded num',
      'accents',
      'text number',
      'general int',
      'iso date',
    ])
      expect(got[kind], kind).toBe(shown[kind]);
  });
});
