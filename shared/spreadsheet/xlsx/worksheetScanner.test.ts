import { describe, expect, it } from 'vitest';
import { NumberDisplay } from './cellStyles';
import { WorksheetScanner } from './worksheetScanner';

const XML =
  '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C4"/>' +
  '<sheetData><row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>When</t></is></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><f>1+2</f><v>3</v></c><c r="C2" s="1"><v>46329</v></c></row>' +
  '<row r="3" customHeight="1"/>' +
  '<row r="4"><c r="A4" t="str"><f>A1</f><v>x &amp; y</v></c><c t="b"><v>1</v></c><c r="C4" s="1"/></row>' +
  '<row r="5"><c r="A5" t="inlineStr"><is><t>Zoë € 😀</t></is></c><c r="B5"><v>-0</v></c><c r="C5" s="1"><v>46329.5</v></c>' +
  '<c r="D5"><v>0.30000000000000004</v></c><c r="E5" t="e"><v>#N/A</v></c><c r="F5" t="str"><v>Ünïcode &lt;ok&gt;</v></c></row>' +
  '</sheetData><rowBreaks count="1"><brk id="2"/></rowBreaks><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>';
const BYTES = new TextEncoder().encode(XML);

function scan(pieces: Uint8Array[]): {
  scanner: WorksheetScanner;
  merges: ReturnType<WorksheetScanner['finish']>;
} {
  const scanner = new WorksheetScanner(
    ['Name', 'Amount', 'Ann'],
    new Uint8Array([NumberDisplay.Number, NumberDisplay.Date]),
    false,
  );
  for (const piece of pieces) scanner.push(piece);
  return { scanner, merges: scanner.finish() };
}

describe('WorksheetScanner', () => {
  const expected = [
    { rowNumber: 1, cells: ['Name', 'Amount', 'When'] },
    { rowNumber: 2, cells: ['Ann', '3', '2026-11-03'] },
    { rowNumber: 4, cells: ['x & y', 'TRUE'] },
    {
      rowNumber: 5,
      cells: ['Zoë € 😀', '0', '2026-11-03T12:00:00', '0.3', '#N/A', 'Ünïcode <ok>'],
    },
  ];

  it('reads a whole sheet and its merged ranges', () => {
    const { scanner, merges } = scan([BYTES]);
    expect(scanner.rows).toEqual(expected);
    expect(merges).toEqual([{ firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 1 }]);
  });

  it('gives the same result however the bytes are cut into pieces, even inside a character', () => {
    for (let cut = 1; cut < BYTES.length; cut++) {
      const { scanner, merges } = scan([BYTES.slice(0, cut), BYTES.slice(cut)]);
      expect(scanner.rows, `cut at ${cut}`).toEqual(expected);
      expect(merges).toHaveLength(1);
    }
    const tiny: Uint8Array[] = [];
    for (let at = 0; at < BYTES.length; at += 7) tiny.push(BYTES.slice(at, at + 7));
    expect(scan(tiny).scanner.rows).toEqual(expected);
  });

  it('never keeps or changes the pieces it is given', () => {
    const piece = BYTES.slice();
    const scanner = new WorksheetScanner(['Name', 'Amount', 'Ann'], new Uint8Array([0, 1]), false);
    scanner.push(piece.subarray(0, 500));
    piece.fill(0, 0, 500);
    scanner.push(BYTES.subarray(500));
    scanner.finish();
    expect(scanner.rows).toEqual(expected);
  });

  it('reads the same sheet with a prefix on every element, however it is cut into pieces', () => {
    const prefixed = new TextEncoder().encode(
      XML.replace(/<(\/?)(?!\?)/g, '<$1ss:').replace('xmlns=', 'xmlns:ss='),
    );
    for (let cut = 1; cut < prefixed.length; cut++) {
      const { scanner, merges } = scan([prefixed.slice(0, cut), prefixed.slice(cut)]);
      expect(scanner.rows, `cut at ${cut}`).toEqual(expected);
      expect(merges, `cut at ${cut}`).toEqual([{ firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 1 }]);
    }
  });

  it('reads whole-column and whole-row merged ranges', () => {
    const xml = XML.replace(
      '<mergeCell ref="A1:B1"/>',
      '<mergeCell ref="A:A"/><mergeCell ref="2:3"/><mergeCell ref="C1:C1"/>',
    );
    expect(scan([new TextEncoder().encode(xml)]).merges).toEqual([
      { firstRow: 1, lastRow: 1_048_576, firstColumn: 0, lastColumn: 0 },
      { firstRow: 2, lastRow: 3, firstColumn: 0, lastColumn: 16_383 },
      { firstRow: 1, lastRow: 1, firstColumn: 2, lastColumn: 2 },
    ]);
  });

  describe('reads in linear work however long a row is and however small the pieces', () => {
    const encoder = new TextEncoder();
    const open = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
    const close = '</sheetData></worksheet>';

    /** Pushes `parts` in pieces of `size` bytes, made as they go (no copy of the whole sheet). */
    function scanInPieces(parts: Array<string | [string, number]>, size: number): WorksheetScanner {
      const scanner = new WorksheetScanner(['Name'], new Uint8Array([0]), false);
      let piece = new Uint8Array(size);
      let used = 0;
      const emit = (bytes: Uint8Array) => {
        for (let at = 0; at < bytes.length;) {
          const take = Math.min(size - used, bytes.length - at);
          piece.set(bytes.subarray(at, at + take), used);
          used += take;
          at += take;
          if (used === size) {
            scanner.push(piece);
            piece = new Uint8Array(size);
            used = 0;
          }
        }
      };
      for (const part of parts) {
        if (typeof part === 'string') emit(encoder.encode(part));
        else for (let k = 0; k < part[1]; k++) emit(encoder.encode(part[0]));
      }
      scanner.push(piece.subarray(0, used));
      scanner.finish();
      return scanner;
    }

    const MB = 1024 * 1024;
    const spaces = ' '.repeat(64 * 1024);

    it('a row with 16 MB of spaces between its cells, in 16 KB pieces', () => {
      const scanner = scanInPieces(
        [
          open,
          '<row r="1"><c r="A1" t="s"><v>0</v></c>',
          [spaces, 256],
          '<c r="B1"><v>7</v></c></row>',
          close,
        ],
        16 * 1024,
      );
      expect(scanner.rows).toEqual([{ rowNumber: 1, cells: ['Name', '7'] }]);
      expect(scanner.bytesScanned).toBeLessThan(17 * MB);
    });

    it('a cell whose text is 16 MB of spaces with ">" in every piece, in 16 KB pieces', () => {
      const text = `${spaces.slice(0, -1)}>`;
      const scanner = scanInPieces(
        [open, '<row r="1"><c r="A1" t="inlineStr"><is><t>a', [text, 256], 'b</t></is></c></row>', close],
        16 * 1024,
      );
      expect(scanner.rows[0]?.cells[0]).toHaveLength(16 * MB + 2);
      // The kept cell is searched for its end once, then read once.
      expect(scanner.bytesScanned).toBeLessThan(33 * MB);
    });

    it('a start tag holding 16 MB of spaces and quoted ">"s, in 16 KB pieces', () => {
      const scanner = scanInPieces(
        [open, '<row r="1"><c r="A1"', [`${spaces} x="a>b"`, 256], '><v>5</v></c></row>', close],
        16 * 1024,
      );
      expect(scanner.rows).toEqual([{ rowNumber: 1, cells: ['5'] }]);
      expect(scanner.bytesScanned).toBeLessThan(34 * MB);
    });

    it('a row of 200,000 cells in 1 KB pieces, each cell read once', () => {
      const scanner = scanInPieces(
        [open, '<row r="1">', ['<c><v>12</v></c>', 200_000], '</row>', close],
        1024,
      );
      expect(scanner.rows[0]?.cells).toHaveLength(200_000);
      expect(scanner.bytesScanned).toBeLessThan(2 * 200_000 * 16);
    });
  });
});
