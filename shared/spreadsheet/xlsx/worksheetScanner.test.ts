import { describe, expect, it } from 'vitest';
import { NumberDisplay } from './cellStyles';
import { WorksheetScanner } from './worksheetScanner';

const XML =
  '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C4"/>' +
  '<sheetData><row r="1" spans="1:3"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>When</t></is></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><f>1+2</f><v>3</v></c><c r="C2" s="1"><v>46329</v></c></row>' +
  '<row r="3" customHeight="1"/>' +
  '<row r="4"><c r="A4" t="str"><f>A1</f><v>x &amp; y</v></c><c t="b"><v>1</v></c><c r="C4" s="1"/></row>' +
  '</sheetData><rowBreaks count="1"><brk id="2"/></rowBreaks><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>';

function scan(pieces: string[]): WorksheetScanner {
  const scanner = new WorksheetScanner(
    ['Name', 'Amount', 'Ann'],
    new Uint8Array([NumberDisplay.Number, NumberDisplay.Date]),
    false,
  );
  for (const piece of pieces) scanner.push(piece);
  return scanner;
}

describe('WorksheetScanner', () => {
  const expected = [
    { rowNumber: 1, cells: ['Name', 'Amount', 'When'] },
    { rowNumber: 2, cells: ['Ann', '3', '2026-11-03'] },
    { rowNumber: 4, cells: ['x & y', 'TRUE'] },
  ];

  it('reads a whole sheet and its merged ranges', () => {
    const scanner = scan([XML]);
    expect(scanner.rows).toEqual(expected);
    expect(scanner.finish()).toEqual([{ firstRow: 1, lastRow: 1, firstColumn: 0, lastColumn: 1 }]);
  });

  it('gives the same result however the XML is cut into pieces', () => {
    for (let cut = 1; cut < XML.length; cut++) {
      const scanner = scan([XML.slice(0, cut), XML.slice(cut)]);
      expect(scanner.rows, `cut at ${cut}`).toEqual(expected);
      expect(scanner.finish()).toHaveLength(1);
    }
    const tiny = scan(XML.match(/[\s\S]{1,7}/g) ?? []);
    expect(tiny.rows).toEqual(expected);
  });
});
