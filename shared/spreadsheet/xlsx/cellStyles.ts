import { formatHasDatePart, isBuiltInDateFormatId, isDateFormatCode } from '../cells/dateFormat';
import { findStartTags, readAttributes } from './xmlText';

/** How a style shows a number: as a plain number, a date (maybe with time), or a time of day. */
export const NumberDisplay = { Number: 0, Date: 1, TimeOnly: 2 } as const;

/** Time-only built-in formats (h:mm AM/PM … [h]:mm:ss and mm:ss). */
const BUILT_IN_TIME_ONLY = new Set([18, 19, 20, 21, 45, 46, 47]);

/**
 * For each cell style index (`s=` on a cell), whether its number format shows a date. Only
 * `cellXfs` counts; `cellStyleXfs` are the named styles cells inherit from, not cell styles.
 */
export function parseCellStyles(xml: string | undefined): Uint8Array {
  if (!xml) return new Uint8Array(0);
  const customFormats = new Map<number, string>();
  for (const tag of findStartTags(xml, 'numFmt')) {
    const attributes = readAttributes(tag);
    customFormats.set(Number(attributes.get('numFmtId')), attributes.get('formatCode') ?? '');
  }
  const start = xml.indexOf('<cellXfs');
  const end = xml.indexOf('</cellXfs>', start);
  if (start === -1 || end === -1) return new Uint8Array(0);
  const tags = findStartTags(xml.slice(start, end), 'xf');
  const displays = new Uint8Array(tags.length);
  tags.forEach((tag, index) => {
    const id = Number(readAttributes(tag).get('numFmtId') ?? 0);
    const custom = customFormats.get(id);
    if (custom !== undefined) {
      if (isDateFormatCode(custom))
        displays[index] = formatHasDatePart(custom) ? NumberDisplay.Date : NumberDisplay.TimeOnly;
    } else if (isBuiltInDateFormatId(id)) {
      displays[index] = BUILT_IN_TIME_ONLY.has(id) ? NumberDisplay.TimeOnly : NumberDisplay.Date;
    }
  });
  return displays;
}
