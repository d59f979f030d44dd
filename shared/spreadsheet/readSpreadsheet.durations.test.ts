// Strict Open XML writes a time value in a date cell as an ISO 8601 duration (PT24H0M0.000S). Excel
// shows it by the cell's format, as it shows any time value; both readers do the same.
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from './index';
import { buildXlsx } from './testing/zipWriter';

const STRICT = 'http://purl.oclc.org/ooxml/spreadsheetml/main';

/** Styles: 1 is elapsed hours ([h]:mm:ss), 2 a time of day (h:mm:ss, built-in 21). */
const styles =
  `<styleSheet xmlns="${STRICT}"><numFmts count="1"><numFmt numFmtId="164" formatCode="[h]:mm:ss"/></numFmts>` +
  '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="21"/></cellXfs></styleSheet>';

/** A Strict workbook with two duration cells; `typeAttribute` writes their type (`t="d"`). */
function strictDurations(typeAttribute: string): Uint8Array {
  return buildXlsx({
    sheetBody: '',
    styles,
    sheetXml:
      `<?xml version="1.0"?><worksheet xmlns="${STRICT}"><sheetData>` +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Shift</t></is></c><c r="B1" t="inlineStr"><is><t>Ends</t></is></c></row>' +
      `<row r="2"><c r="A2" s="1" ${typeAttribute}><v>PT24H0M0.000S</v></c><c r="B2" s="2" ${typeAttribute}><v>PT25H30M15S</v></c></row>` +
      '</sheetData></worksheet>',
    workbookXml: `<?xml version="1.0"?><workbook xmlns="${STRICT}" xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships"><sheets><sheet name="Gifts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  });
}

describe('durations in date cells (Strict Open XML)', () => {
  it('shows them by the cell format with the fast reader: elapsed hours, or the time of day', async () => {
    const result = await readSpreadsheet(strictDurations('t="d"'), 'strict.xlsx');
    expect(result.warnings).toEqual([]);
    expect(result.rows[0]?.cells).toEqual(['24:00:00', '01:30:15']);
  });

  it('shows them the same through the general reader, not as NaN', async () => {
    // Spaces around "=" (legal XML) make the fast reader hand the file to the general one.
    const result = await readSpreadsheet(strictDurations('t = "d"'), 'strict.xlsx');
    expect(result.warnings.join(' ')).toContain('slower general reader');
    expect(result.rows[0]?.cells).toEqual(['24:00:00', '01:30:15']);
  });
});
