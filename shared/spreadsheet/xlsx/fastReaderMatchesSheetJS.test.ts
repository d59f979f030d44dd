import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { WorkMonitor } from '../cancellation';
import { readWithSheetJS } from '../sheetjs/readWithSheetJS';
import { readXlsx } from './readXlsx';

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const TEXTS = [
  '00123',
  'Ann & Bob',
  '<tag>',
  'say "hi"',
  'Zoë 東京',
  '  padded  ',
  'line\nbreak',
  'TRUE',
  '1e5',
  '€5',
];

function randomCell(next: () => number): unknown {
  const kind = Math.floor(next() * 8);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return TEXTS[Math.floor(next() * TEXTS.length)];
    case 2:
      return Math.round(next() * 1e6) / 100;
    case 3:
      return (next() - 0.5) * 10 ** Math.floor(next() * 30 - 10);
    case 4:
      return next() < 0.5;
    case 5:
      return new Date(
        Date.UTC(1990 + Math.floor(next() * 50), Math.floor(next() * 12), 1 + Math.floor(next() * 28)),
      );
    case 6:
      return Math.floor(next() * 1e9);
    default:
      return `text ${Math.floor(next() * 1000)}`;
  }
}

describe('fast xlsx reader against SheetJS', () => {
  it.each([
    [1, true, false],
    [2, false, false],
    [3, true, true],
  ])(
    'gives the same cells for a random workbook (seed %s, shared strings %s, 1904 %s)',
    async (seed, bookSST, date1904) => {
      const next = random(seed);
      const aoa = Array.from({ length: 300 }, () =>
        next() < 0.05 ? [] : Array.from({ length: 1 + Math.floor(next() * 12) }, () => randomCell(next)),
      );
      const sheet = XLSX.utils.aoa_to_sheet(aoa, { cellDates: true });
      sheet['B2'] = { t: 'n', v: 0.1 + 0.2, f: '0.1+0.2' };
      sheet['C3'] = { t: 's', v: 'cached', f: '"cached"' };
      sheet['!merges'] = [{ s: { r: 0, c: 0 }, e: { r: 1, c: 2 } }];
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, 'Random');
      if (date1904) book.Workbook = { WBProps: { date1904: true } };
      const bytes = new Uint8Array(
        XLSX.write(book, { type: 'array', bookType: 'xlsx', bookSST }) as ArrayBuffer,
      );

      const fast = await readXlsx(bytes, undefined, new WorkMonitor({}));
      const reference = readWithSheetJS(bytes, undefined, new WorkMonitor({}));
      expect(fast.sheetNames).toEqual(reference.sheetNames);
      expect(fast.raw.merges).toEqual(reference.raw.merges);
      expect(fast.raw.rows).toEqual(reference.raw.rows);
      expect(fast.raw.rows.length).toBeGreaterThan(250);
    },
  );
});
