import { errorCodeText } from '../cells/errorText';
import {
  excelSerialToDuration,
  excelSerialToIso,
  isoDateTimeText,
  isoDurationDays,
} from '../cells/excelDate';
import { formatNumber, formatNumericText, zeroPaddedText } from '../cells/numberText';
import { NumberDisplay } from './cellStyles';
import { ZERO_PADDED_DISPLAY } from '../cells/dateFormat';
import { richText } from './sharedStrings';
import { decodeXmlText } from './xmlText';

const SLASH = 47;
const MINUS = 45;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LOWER_R = 114;
const LOWER_T = 116;

/** Cell types by the first letter of `t=`: s(hared), str / inlineStr, b(oolean), e(rror), d(ate), n(umber). */
export const TYPE_NUMBER = 0;
export const TYPE_SHARED = 1;
export const TYPE_STRING = 2;
export const TYPE_INLINE = 3;
export const TYPE_BOOLEAN = 4;
export const TYPE_ERROR = 5;
export const TYPE_DATE = 6;

/** The type from the `t=` value's first letter and length, without making a string of it. */
export function typeAt(bytes: Uint8Array, start: number, length: number): number {
  switch (bytes[start]) {
    case 115: // s, str
      return length === 1 ? TYPE_SHARED : TYPE_STRING;
    case 105: // inlineStr
      return TYPE_INLINE;
    case 98: // b
      return TYPE_BOOLEAN;
    case 101: // e
      return TYPE_ERROR;
    case 100: // d
      return TYPE_DATE;
    default:
      return TYPE_NUMBER;
  }
}

const utf8 = new TextDecoder('utf-8');
// One character per byte: only used for text known to be ASCII (numbers, error codes, dates).
const latin1 = new TextDecoder('latin1');

/**
 * ASCII bytes as a string. `String.fromCharCode` with the bytes as arguments makes a flat string
 * at once, where a decoder call per short value costs several times more.
 */
function asciiText(b: Uint8Array, s: number, e: number): string {
  switch (e - s) {
    case 0:
      return '';
    case 1:
      return String.fromCharCode(b[s]!);
    case 2:
      return String.fromCharCode(b[s]!, b[s + 1]!);
    case 3:
      return String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4:
      return String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5:
      return String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6:
      return String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7:
      return String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8:
      return String.fromCharCode(
        b[s]!,
        b[s + 1]!,
        b[s + 2]!,
        b[s + 3]!,
        b[s + 4]!,
        b[s + 5]!,
        b[s + 6]!,
        b[s + 7]!,
      );
    default:
      return latin1.decode(b.subarray(s, e));
  }
}

/**
 * Whether `<v>` number text is already what Excel's General format shows ("12.5", "-3", "0.25"),
 * so it can be taken as it is: no parse and print per cell in the hot loop. Longer than 12
 * characters is never taken as is (15 significant digits may need rounding).
 */
function isCanonicalNumber(b: Uint8Array, s: number, e: number): boolean {
  const length = e - s;
  if (length === 0 || length > 12) return false;
  let i = b[s] === MINUS ? s + 1 : s;
  if (i === e) return false;
  // A leading zero is canonical only as "0" or "0.xxx".
  if (b[i] === DIGIT_0 && i + 1 < e && b[i + 1] !== DOT) return false;
  let sawDot = false;
  for (; i < e; i++) {
    const code = b[i]!;
    if (code === DOT) {
      if (sawDot || i === e - 1) return false;
      sawDot = true;
    } else if (code < DIGIT_0 || code > DIGIT_9) {
      return false;
    }
  }
  if (sawDot && b[e - 1] === DIGIT_0) return false;
  // "-0" reads as "0".
  return !(length === 2 && b[s] === MINUS && b[s + 1] === DIGIT_0);
}

/**
 * Turns a cell's value into the text Excel shows, by the cell's type and its style's number format.
 * Also counts the cells that point past the end of the shared strings.
 */
export class CellText {
  /** Date cells repeat (a month's dates): each serial is turned into text once. */
  private readonly dates = new Map<number, string>();
  private readonly times = new Map<number, string>();
  /** Cells whose shared-string index is past the table's end. */
  missingSharedStrings = 0;
  /** Set by a lookup that missed; the caller clears it once it has noted where. */
  missedSharedString = false;

  constructor(
    private readonly sharedStrings: readonly string[],
    private readonly displays: Uint8Array,
    private readonly date1904: boolean,
  ) {}

  /** The text of a cell's content other than a leading `<v>` (formulas first, inline strings). */
  contentText(xml: string, type: number, style: number): string {
    return type === TYPE_INLINE ? inlineText(xml) : this.wrappedValue(xml, type, style);
  }

  /** A cell whose `<v>` is not first (a formula precedes it) or is absent. */
  private wrappedValue(xml: string, type: number, style: number): string {
    const open = xml.indexOf('<v');
    if (open === -1) return '';
    const valueStart = xml.indexOf('>', open) + 1;
    if (valueStart === 0 || xml.charCodeAt(valueStart - 2) === SLASH) return '';
    const valueEnd = xml.indexOf('</v>', valueStart);
    if (valueEnd === -1) return '';
    return this.textValue(xml.slice(valueStart, valueEnd), type, style);
  }

  cellValue(b: Uint8Array, valueStart: number, valueEnd: number, type: number, style: number): string {
    switch (type) {
      case TYPE_SHARED: {
        let index = 0;
        for (let k = valueStart; k < valueEnd; k++) index = index * 10 + (b[k]! - DIGIT_0);
        return this.sharedString(index);
      }
      case TYPE_NUMBER: {
        const display = this.displays[style] ?? NumberDisplay.Number;
        if (display === NumberDisplay.Number && isCanonicalNumber(b, valueStart, valueEnd))
          return asciiText(b, valueStart, valueEnd);
        return this.textValue(asciiText(b, valueStart, valueEnd), type, style);
      }
      case TYPE_BOOLEAN:
        return b[valueStart] === 49 || (b[valueStart] === LOWER_T && b[valueStart + 1] === LOWER_R)
          ? 'TRUE'
          : 'FALSE';
      default:
        // Text (t="str"), errors and ISO dates: UTF-8 with XML escapes, read as text.
        return this.textValue(utf8.decode(b.subarray(valueStart, valueEnd)), type, style);
    }
  }

  /** A `<v>` value as text, by cell type. */
  private textValue(raw: string, type: number, style: number): string {
    switch (type) {
      case TYPE_SHARED: {
        let index = 0;
        for (let k = 0; k < raw.length; k++) index = index * 10 + (raw.charCodeAt(k) - DIGIT_0);
        return this.sharedString(index);
      }
      case TYPE_NUMBER: {
        const display = this.displays[style] ?? NumberDisplay.Number;
        if (display === NumberDisplay.Number) return formatNumericText(raw);
        if (display >= ZERO_PADDED_DISPLAY) return zeroPaddedText(Number(raw), display - ZERO_PADDED_DISPLAY);
        if (display === NumberDisplay.Elapsed) return excelSerialToDuration(Number(raw));
        return this.dateText(Number(raw), display === NumberDisplay.TimeOnly);
      }
      case TYPE_BOOLEAN:
        return raw.charCodeAt(0) === 49 || raw.startsWith('true') ? 'TRUE' : 'FALSE';
      case TYPE_ERROR:
        return raw.charCodeAt(0) === 35 ? raw : errorCodeText(Number(raw));
      case TYPE_DATE: {
        // A duration (Strict Open XML's time value) shows by the cell's time format, as Excel shows it.
        const days = isoDurationDays(raw);
        const display = this.displays[style] ?? NumberDisplay.Number;
        if (days !== undefined && display !== NumberDisplay.Number && display < ZERO_PADDED_DISPLAY) {
          return this.textValue(String(days), TYPE_NUMBER, style);
        }
        return isoDateTimeText(raw);
      }
      default:
        return decodeXmlText(raw);
    }
  }

  private sharedString(index: number): string {
    const text = this.sharedStrings[index];
    if (text !== undefined) return text;
    this.missingSharedStrings++;
    this.missedSharedString = true;
    return '';
  }

  private dateText(serial: number, timeOnly: boolean): string {
    if (Number.isNaN(serial)) return formatNumber(serial);
    const cache = timeOnly ? this.times : this.dates;
    let text = cache.get(serial);
    if (text === undefined) {
      text = excelSerialToIso(serial, this.date1904, timeOnly);
      cache.set(serial, text);
    }
    return text;
  }
}

/** `<is>` text: one `<t>` or rich-text runs, phonetic guides left out, as in shared strings. */
function inlineText(xml: string): string {
  const value = richText(xml, 0, xml.length);
  return value === '' ? '' : decodeXmlText(value);
}
