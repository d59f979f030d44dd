// Test-only: builds zip packages by hand so tests can hold XML a workbook writer would never emit.
import { deflateRaw } from 'pako';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** An entry deflated beforehand, with the inflated size its headers should declare (true or not). */
export interface Predeflated {
  deflated: Uint8Array;
  declaredSize: number;
}

export function buildZip(files: Record<string, string | Uint8Array | Predeflated>): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const given = content instanceof Uint8Array || typeof content === 'string' ? undefined : content;
    const data =
      content instanceof Uint8Array ? content : encoder.encode(typeof content === 'string' ? content : '');
    const size = given ? given.declaredSize : data.length;
    const compressed = given ? given.deflated : deflateRaw(data);
    const nameBytes = encoder.encode(name);
    const local = new Uint8Array(30 + nameBytes.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, 8, true);
    const crc = given ? 0 : crc32(data);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, compressed.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const header = new Uint8Array(46 + nameBytes.length);
    const hv = new DataView(header.buffer);
    hv.setUint32(0, 0x02014b50, true);
    hv.setUint16(4, 20, true);
    hv.setUint16(6, 20, true);
    hv.setUint16(10, 8, true);
    hv.setUint32(16, crc, true);
    hv.setUint32(20, compressed.length, true);
    hv.setUint32(24, size, true);
    hv.setUint16(28, nameBytes.length, true);
    hv.setUint32(42, offset, true);
    header.set(nameBytes, 46);
    chunks.push(local, compressed);
    central.push(header);
    offset += local.length + compressed.length;
  }
  const centralSize = central.reduce((sum, c) => sum + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, central.length, true);
  ev.setUint16(10, central.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const all = [...chunks, ...central, end];
  const out = new Uint8Array(all.reduce((sum, c) => sum + c.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal xlsx package around the given sheet XML body (the part inside `<worksheet>`). */
export function buildXlsx(options: {
  sheetBody: string;
  sharedStrings?: string[] | string;
  styles?: string;
  date1904?: boolean;
  sheetName?: string;
  /** Parts deflated beforehand (zip bombs), added to or replacing the generated ones. */
  predeflated?: Record<string, Predeflated>;
  /** The whole worksheet part, replacing the default `<worksheet>` wrapper. */
  sheetXml?: string;
  /** The whole workbook part, replacing the default one. */
  workbookXml?: string;
  /** Renames every zip entry, e.g. to the backslash paths some Windows tools write. */
  entryName?: (path: string) => string;
}): Uint8Array {
  const sst =
    typeof options.sharedStrings === 'string'
      ? options.sharedStrings
      : `<sst xmlns="${MAIN}">${(options.sharedStrings ?? []).map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      options.workbookXml ??
      `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr${options.date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="${options.sheetName ?? 'Gifts'}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml':
      options.sheetXml ??
      `<?xml version="1.0"?><worksheet xmlns="${MAIN}" xmlns:r="${REL}">${options.sheetBody}</worksheet>`,
    'xl/sharedStrings.xml': sst,
    'xl/styles.xml':
      options.styles ??
      `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="20"/></cellXfs></styleSheet>`,
  };
  const rename = options.entryName ?? ((path: string) => path);
  const all: Record<string, string | Predeflated> = { ...parts, ...options.predeflated };
  return buildZip(Object.fromEntries(Object.entries(all).map(([path, part]) => [rename(path), part])));
}
