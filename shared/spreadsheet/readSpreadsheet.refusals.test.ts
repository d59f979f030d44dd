// Files other readers open that were once refused: each is a small file of our own with what made a
// real one fail.
import { describe, expect, it } from 'vitest';
import { listSheets, readSpreadsheet } from './index';
import { buildOds, odsRow, odsText } from './testing/odsWriter';
import { buildXlsx } from './testing/zipWriter';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const sheetBody =
  '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>' +
  '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c></row></sheetData>';

/**
 * The zip rewritten as Excel 2010 writes some workbooks: every size in the local and central headers
 * is 0xFFFFFFFF, with the real sizes in a Zip64 extra field (id 1) of each entry.
 */
function withZip64Sizes(zip: Uint8Array): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const endAt = zip.length - 22;
  const count = view.getUint16(endAt + 10, true);
  const out: number[] = [];
  const localMoves = new Map<number, number>();
  let at = 0;
  const extra = (uncompressed: number, compressed: number): number[] => {
    const bytes = new Uint8Array(20);
    const v = new DataView(bytes.buffer);
    v.setUint16(0, 1, true);
    v.setUint16(2, 16, true);
    v.setBigUint64(4, BigInt(uncompressed), true);
    v.setBigUint64(12, BigInt(compressed), true);
    return [...bytes];
  };
  const centralAt = view.getUint32(endAt + 16, true);
  while (at < centralAt) {
    const nameLength = view.getUint16(at + 26, true);
    const compressed = view.getUint32(at + 18, true);
    const uncompressed = view.getUint32(at + 22, true);
    const header = [...zip.subarray(at, at + 30 + nameLength)];
    const hv = new DataView(Uint8Array.from(header).buffer);
    hv.setUint32(18, 0xffffffff, true);
    hv.setUint32(22, 0xffffffff, true);
    hv.setUint16(28, 20, true);
    localMoves.set(at, out.length);
    out.push(...new Uint8Array(hv.buffer), ...extra(uncompressed, compressed));
    out.push(...zip.subarray(at + 30 + nameLength, at + 30 + nameLength + compressed));
    at += 30 + nameLength + compressed;
  }
  const newCentralAt = out.length;
  for (let n = 0; n < count; n++) {
    const nameLength = view.getUint16(at + 28, true);
    const header = Uint8Array.from(zip.subarray(at, at + 46 + nameLength));
    const hv = new DataView(header.buffer);
    const compressed = hv.getUint32(20, true);
    const uncompressed = hv.getUint32(24, true);
    hv.setUint32(20, 0xffffffff, true);
    hv.setUint32(24, 0xffffffff, true);
    hv.setUint16(30, 20, true);
    hv.setUint32(42, localMoves.get(hv.getUint32(42, true)) ?? 0, true);
    out.push(...header, ...extra(uncompressed, compressed));
    at += 46 + nameLength;
  }
  const end = Uint8Array.from(zip.subarray(endAt));
  const ev = new DataView(end.buffer);
  ev.setUint32(12, out.length - newCentralAt, true);
  ev.setUint32(16, newCentralAt, true);
  out.push(...end);
  return Uint8Array.from(out);
}

describe('files other readers open are read', () => {
  it('reads an xlsx whose sizes are in Zip64 extra fields', async () => {
    const bytes = withZip64Sizes(buildXlsx({ sheetBody }));
    const result = await readSpreadsheet(bytes, 'excel2010.xlsx');
    expect(result.warnings).toEqual([]);
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann'] }]);
  });

  it('reads an ods without styles.xml', async () => {
    const bytes = buildOds({
      rows: odsRow(odsText('Name')) + odsRow(odsText('Ann')),
      withoutStylesPart: true,
    });
    expect(await listSheets(bytes, 'plain.ods')).toEqual(['Gifts']);
    const result = await readSpreadsheet(bytes, 'plain.ods');
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann'] }]);
  });

  it('reads the worksheets of a workbook part that lists no sheet', async () => {
    const bytes = buildXlsx({
      sheetBody,
      workbookXml: `<?xml version="1.0"?><workbook xmlns="${MAIN}"><workbookPr/></workbook>`,
    });
    expect(await listSheets(bytes, 'nosheets.xlsx')).toEqual(['Sheet1']);
    const result = await readSpreadsheet(bytes, 'nosheets.xlsx');
    expect(result.sheet).toBe('Sheet1');
    expect(result.rows).toEqual([{ rowNumber: 2, cells: ['Ann'] }]);
  });

  it('reads an ods with one cell of a value type ODF does not define as the text it shows', async () => {
    const odd =
      '<table:table-cell office:value-type="floatt" office:value="5"><text:p>5</text:p></table:table-cell>';
    const rows =
      odsRow(odsText('Name'), odsText('Amount')) +
      odsRow(odsText('Ann'), odd) +
      odsRow(odsText('Bob'), odsText('6'));
    const result = await readSpreadsheet(buildOds({ rows }), 'odd.ods');
    expect(result.rows.map((row) => row.cells)).toEqual([
      ['Ann', '5'],
      ['Bob', '6'],
    ]);
  });
});
