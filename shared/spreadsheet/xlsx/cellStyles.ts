import {
  ZERO_PADDED_DISPLAY,
  displayOfBuiltInFormat,
  displayOfFormatCode,
  zeroPaddedWidth,
} from '../cells/dateFormat';
import { findStartTags, readAttributes } from './xmlText';

export { NumberDisplay } from '../cells/dateFormat';

/** The part of `xml` between `<name …>` and `</name>`, or '' when absent. */
function elementContent(xml: string, name: string): string {
  const start = findStartTags(xml, name)[0];
  if (start === undefined || start.endsWith('/>')) return '';
  const from = xml.indexOf(start) + start.length;
  const end = xml.indexOf(`</${name}>`, from);
  return end === -1 ? '' : xml.slice(from, end);
}

/**
 * For each cell style index (`s=` on a cell), how its number format shows a number. Only
 * `cellXfs` counts; `cellStyleXfs` are the named styles cells inherit from, not cell styles. Only
 * `<numFmts>` defines formats: a `<numFmt>` inside `<dxfs>` belongs to a conditional format and
 * may reuse an id of the cell formats.
 */
export function parseCellStyles(xml: string | undefined): Uint8Array {
  if (!xml) return new Uint8Array(0);
  const customFormats = new Map<number, string>();
  for (const tag of findStartTags(elementContent(xml, 'numFmts'), 'numFmt')) {
    const attributes = readAttributes(tag);
    customFormats.set(Number(attributes.get('numFmtId')), attributes.get('formatCode') ?? '');
  }
  const tags = findStartTags(elementContent(xml, 'cellXfs'), 'xf');
  const displays = new Uint8Array(tags.length);
  tags.forEach((tag, index) => {
    const id = Number(readAttributes(tag).get('numFmtId') ?? 0);
    const custom = customFormats.get(id);
    const padded = custom !== undefined ? zeroPaddedWidth(custom) : 0;
    displays[index] = padded
      ? ZERO_PADDED_DISPLAY + padded
      : custom !== undefined
        ? displayOfFormatCode(custom)
        : displayOfBuiltInFormat(id);
  });
  return displays;
}
