import * as XLSX from 'xlsx';

const LBL = 0x0018;
const SST = 0x00fc;
const EOF = 0x000a;
const FILE_PASS = 0x002f;

/**
 * An .xls SheetJS refused, made readable the way Excel reads it, or undefined when there is nothing
 * to change (or the file is encrypted, or not a compound file). Only the workbook's global records
 * are touched, in place, at the same size:
 * - a defined name's formula is emptied (its length set to 0): SheetJS refuses the whole workbook
 *   over a formula token it does not know (an "ELF" reference, say) in a name, and the desk reads no
 *   names;
 * - a shared-string table whose count of strings says 0 while it holds strings is told to read them
 *   all (SheetJS reads as many as the count says, then fails on the first cell that uses one).
 */
export function repairXls(bytes: Uint8Array): Uint8Array | undefined {
  let cfb: ReturnType<typeof XLSX.CFB.read>;
  try {
    cfb = XLSX.CFB.read(bytes, { type: 'array' });
  } catch {
    return undefined;
  }
  const entry = XLSX.CFB.find(cfb, 'Workbook') ?? XLSX.CFB.find(cfb, 'Book');
  if (!entry?.content) return undefined;
  const stream = Uint8Array.from(entry.content as ArrayLike<number>);
  const view = new DataView(stream.buffer);
  let changed = false;
  for (let at = 0; at + 4 <= stream.length;) {
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    const body = at + 4;
    if (body + length > stream.length || type === FILE_PASS) return undefined;
    if (type === LBL && length >= 6 && view.getUint16(body + 4, true) !== 0) {
      view.setUint16(body + 4, 0, true);
      changed = true;
    } else if (type === SST && length > 8 && view.getUint32(body + 4, true) === 0) {
      view.setUint32(body + 4, 0xffffffff, true);
      changed = true;
    } else if (type === EOF) break;
    at = body + length;
  }
  if (!changed) return undefined;
  entry.content = stream as unknown as typeof entry.content;
  return new Uint8Array(XLSX.CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
}
