// A sheet larger than the app can hold (Excel's 1,048,576 rows, or the workspace's 16,777,216
// cells) is refused as soon as the reader passes the limit, not after reading all of it.
import { describe, expect, it } from 'vitest';
import { MAX_WORKSPACE_CELLS, MAX_WORKSPACE_ROWS } from '../contract/workspace';
import { readSpreadsheet, READ_LIMITS } from './index';
import { SheetTooLargeError } from './layout/sheetSize';
import { buildXlsx } from './testing/zipWriter';

const ROWS_MESSAGE =
  'This sheet has more than 1,048,576 rows, more than the app can hold. Split it into smaller files, or use the command line, which reads files of any size: donation-desk build FILE --out bulk.json.gz';

async function refusal(promise: Promise<unknown>): Promise<SheetTooLargeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SheetTooLargeError);
  return error as SheetTooLargeError;
}

describe('the size a sheet may have', () => {
  it('is the workspace’s own limits', () => {
    expect(READ_LIMITS.maxRows).toBe(MAX_WORKSPACE_ROWS);
    expect(READ_LIMITS.maxCells).toBe(MAX_WORKSPACE_CELLS);
  });

  it('refuses a CSV just over 1,048,576 rows as soon as row 1,048,577 is read', async () => {
    // 1,100,000 records: the reader must stop at the first record past the limit.
    const total = 1_100_000;
    const text = 'Name,Amount\n' + 'a,1\n'.repeat(total - 1);
    let lastDone = 0;
    let lastTotal = 0;
    const error = await refusal(
      readSpreadsheet(new TextEncoder().encode(text), 'big.csv', {
        onProgress: (done, all) => {
          lastDone = done;
          lastTotal = all;
        },
      }),
    );
    expect(error.message).toBe(ROWS_MESSAGE);
    expect(error.code).toBe('SPREADSHEET_UNREADABLE');
    expect(error.rowsRead).toBe(MAX_WORKSPACE_ROWS + 1);
    // Progress never reached the end of the text: the rest was not read.
    expect(lastDone).toBeLessThan(lastTotal);
  });

  it('reads a CSV of exactly 1,048,576 rows', async () => {
    const text = 'Name,Amount\n' + 'a,1\n'.repeat(MAX_WORKSPACE_ROWS - 1);
    const sheet = await readSpreadsheet(new TextEncoder().encode(text), 'full.csv');
    expect(sheet.rows).toHaveLength(MAX_WORKSPACE_ROWS - 1);
  });

  it('refuses a sheet past the cell limit when it gets there', async () => {
    const header = Array.from({ length: 20 }, (_, i) => `C${i}`).join(',');
    const row = Array.from({ length: 20 }, () => 'x').join(',');
    const text = `${header}\n${`${row}\n`.repeat(900_000)}`;
    const error = await refusal(readSpreadsheet(new TextEncoder().encode(text), 'wide.csv'));
    expect(error.message).toMatch(/^This sheet has more than 16,777,216 cells \(rows × columns\)/);
    // 16,777,216 / 20 = 838,860.8: refused at the 838,861st filled row.
    expect(error.rowsRead).toBe(838_861);
  });

  it('refuses an xlsx whose rows go past row 1,048,576, while reading it', async () => {
    const rows = [1, 2, 1_048_577, 1_048_578]
      .map(
        (r) =>
          `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>x${r}</t></is></c><c r="B${r}"><v>1</v></c></row>`,
      )
      .join('');
    const bytes = buildXlsx({ sheetBody: `<sheetData>${rows}</sheetData>` });
    const error = await refusal(readSpreadsheet(bytes, 'tall.xlsx'));
    expect(error.message).toBe(ROWS_MESSAGE);
    expect(error.rowsRead).toBe(1_048_577);
  });

  it('can be lowered by the caller', async () => {
    const text = 'Name,Amount\n' + 'a,1\n'.repeat(50);
    const error = await refusal(
      readSpreadsheet(new TextEncoder().encode(text), 'small.csv', { limits: { maxRows: 10 } }),
    );
    expect(error.rowsRead).toBe(11);
    expect(error.message).toMatch(/^This sheet has more than 10 rows/);
  });
});
