import { isoDurationDays } from '../cells/excelDate';
import { ExpandsTooFarError } from '../errors';
import type { ReadLimits } from '../limits';
import { ZipArchive } from '../xlsx/zipArchive';
import { storedZip } from './storedZip';

/** A worksheet part, in any folder SpreadsheetML or Strict Open XML packages use. */
const WORKSHEET = /(^|\/)worksheets\/[^/]+\.xml$/i;
/**
 * A date cell (`t="d"`, prefixed or not, quoted either way) and its value, up to the value's end tag.
 * Groups: the cell's tag before the type, the rest of the tag and the `<v>` start, the value, `</v>`.
 */
const DATE_CELL =
  /(<(?:[\w.-]+:)?c\b[^>]*?)\st\s*=\s*(?:"d"|'d')([^>]*>\s*<(?:[\w.-]+:)?v\b[^>]*>)([^<]*)(<\/(?:[\w.-]+:)?v>)/g;

/**
 * An xlsx made readable for SheetJS as Excel reads it: a date cell holding an ISO 8601 duration
 * (Strict Open XML writes a time value as `PT24H0M0.000S`), which SheetJS reads as NaN, becomes the
 * number Excel holds for it (1 for 24 hours), shown by the cell's own format like any time value.
 * The file is repacked without compression only when something changed; a part larger than the
 * text-part limit, or a zip this cannot read, is left for SheetJS as it is.
 */
export function repairXlsx(bytes: Uint8Array, limits: Readonly<ReadLimits>): Uint8Array {
  let archive: ZipArchive;
  try {
    archive = new ZipArchive(bytes, limits);
  } catch (error) {
    if (error instanceof ExpandsTooFarError) throw error;
    return bytes;
  }
  const repaired = new Map<string, Uint8Array>();
  const decoder = new TextDecoder('utf-8');
  for (const entry of archive.allEntries()) {
    if (!WORKSHEET.test(entry.name) || entry.uncompressedSize > limits.maxTextPartBytes) continue;
    const text = decoder.decode(archive.read(entry));
    if (!/\st\s*=\s*["']d["']/.test(text)) continue;
    const changed = text.replace(
      DATE_CELL,
      (cell, start: string, rest: string, value: string, end: string) => {
        const days = isoDurationDays(value.trim());
        return days === undefined ? cell : `${start}${rest}${days}${end}`;
      },
    );
    if (changed !== text) repaired.set(entry.name, new TextEncoder().encode(changed));
  }
  if (repaired.size === 0) return bytes;
  return storedZip(
    archive.allEntries().map((entry) => ({
      name: entry.name,
      data: repaired.get(entry.name) ?? archive.read(entry),
    })),
  );
}
