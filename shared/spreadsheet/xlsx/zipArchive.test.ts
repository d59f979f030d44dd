import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from '../index';
import { buildXlsx } from '../testing/zipWriter';

describe('UTF-8 across inflate pieces', () => {
  it('keeps multi-byte characters whole in a sheet larger than one piece', async () => {
    const text = 'Zoë € 😀 東京';
    const rows = Array.from(
      { length: 40_000 },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${text} ${i}</t></is></c></row>`,
    );
    const bytes = buildXlsx({
      sheetBody: `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>${rows.join('')}</sheetData>`,
    });
    const result = await readSpreadsheet(bytes, 'utf8.xlsx');
    expect(result.rows).toHaveLength(40_000);
    expect(result.rows.every((row, i) => row.cells[0] === `${text} ${i}`)).toBe(true);
  });
});
