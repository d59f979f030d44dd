import { errorCodeText } from '../cells/errorText';
import { excelSerialToDuration, excelSerialToIso, isoDateTimeText } from '../cells/excelDate';
import { formatNumber, formatNumericText } from '../cells/numberText';
import type { MergedRange, SheetRow } from '../types';
import { NumberDisplay } from './cellStyles';
import { FastReaderUnsupported } from './fastReaderUnsupported';
import { mainNamespacePrefix, PrefixStripper } from './namespacePrefix';
import { richText } from './sharedStrings';
import { decodeXmlText } from './xmlText';

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const GT = 62;
const SLASH = 47;
const QUOTE = 34;
const APOSTROPHE = 39;
const EQUALS = 61;
const MINUS = 45;
const DOT = 46;
const LETTER_A = 65;
const LETTER_Z = 90;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LOWER_C = 99;
const LOWER_O = 111;
const LOWER_V = 118;
const LOWER_W = 119;
const LT = 60;
const LOWER_R = 114;
const LOWER_S = 115;
const LOWER_T = 116;

const isNameEnd = (code: number | undefined): boolean =>
  code === SPACE || code === GT || code === SLASH || code === TAB || code === LF || code === CR;

/** Cell types by the first letter of `t=`: s(hared), str / inlineStr, b(oolean), e(rror), d(ate), n(umber). */
const TYPE_NUMBER = 0;
const TYPE_SHARED = 1;
const TYPE_STRING = 2;
const TYPE_INLINE = 3;
const TYPE_BOOLEAN = 4;
const TYPE_ERROR = 5;
const TYPE_DATE = 6;

/** The type from the `t=` value's first letter and length, without making a string of it. */
function typeAt(bytes: Uint8Array, start: number, length: number): number {
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

/** Excel's last row and column (1-based row, 0-based column): where whole-row/column ranges end. */
const LAST_ROW = 1_048_576;
const LAST_COLUMN = 16_383;

/**
 * A cell reference's row and column; a whole-column reference ("C") has no row and a whole-row one
 * ("7") no column, given as -1.
 */
function parseReference(ref: string): { row: number; column: number } {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i) & ~32;
    if (code < LETTER_A || code > LETTER_Z) break;
    column = column * 26 + (code - LETTER_A + 1);
  }
  return { row: i === ref.length ? -1 : Number(ref.slice(i)), column: column - 1 };
}

/** "B2:C3", "A:A" (whole columns) or "1:2" (whole rows) as a range; undefined when unreadable. */
export function parseMergeRange(ref: string): MergedRange | undefined {
  const [from = '', to = from] = ref.split(':');
  const first = parseReference(from);
  const last = parseReference(to);
  const range: MergedRange = {
    firstRow: first.row === -1 ? 1 : first.row,
    lastRow: last.row === -1 ? LAST_ROW : last.row,
    firstColumn: first.column === -1 ? 0 : first.column,
    lastColumn: last.column === -1 ? LAST_COLUMN : last.column,
  };
  const valid =
    Number.isInteger(range.firstRow) &&
    Number.isInteger(range.lastRow) &&
    range.firstRow >= 1 &&
    range.lastRow >= range.firstRow &&
    range.lastColumn >= range.firstColumn;
  return valid ? range : undefined;
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

const INITIAL_BUFFER = 1 << 16;

/**
 * Scans worksheet XML bytes that arrive in pieces, turning each complete `<row>` into cell text.
 * It works on the UTF-8 bytes themselves (no text decoding of the markup, no DOM, no regex per
 * cell) because this loop is where an import spends its time: shared-string cells become a table
 * lookup, numbers a few byte comparisons. Bytes after the last complete row are kept and scanned
 * again, whole, with the next piece.
 */
export class WorksheetScanner {
  readonly rows: SheetRow[] = [];
  private pending = new Uint8Array(INITIAL_BUFFER);
  private pendingLength = 0;
  private readonly tail: Uint8Array[] = [];
  private afterSheetData = false;
  private nextRowNumber = 1;
  /** Date cells repeat (a month's dates): each serial is turned into text once. */
  private readonly dates = new Map<number, string>();
  private readonly times = new Map<number, string>();
  /** Raw bytes held until the root element says whether the markup carries a namespace prefix. */
  private head: Uint8Array | undefined = new Uint8Array(0);
  private prefix: PrefixStripper | undefined;
  /** Cells whose shared-string index is past the table's end, and where the first one is. */
  missingSharedStrings = 0;
  firstMissingSharedString: { rowNumber: number; column: number } | undefined;
  private missedSharedString = false;

  constructor(
    private readonly sharedStrings: readonly string[],
    private readonly displays: Uint8Array,
    private readonly date1904: boolean,
  ) {}

  /** Scans a piece of the sheet's XML. The piece is read during the call and never kept. */
  push(raw: Uint8Array): void {
    let piece = raw;
    if (this.head) {
      const head = concat(this.head, piece);
      if (!this.readRoot(head, false)) {
        this.head = head;
        return;
      }
      this.head = undefined;
      piece = head;
    }
    if (this.prefix) piece = this.prefix.strip(piece);
    this.scanPiece(piece);
  }

  /**
   * Whether the root element is known yet; a sheet whose elements carry a prefix bound to the
   * SpreadsheetML namespace (`<x:worksheet xmlns:x="…/main">`, as ClosedXML and the Open XML SDK
   * write) is scanned with the prefix taken off as the bytes arrive.
   */
  private readRoot(head: Uint8Array, final: boolean): boolean {
    const text = latin1.decode(head.subarray(0, Math.min(head.length, 4096)));
    const root = /<([A-Za-z_][\w.-]*:)?worksheet[\s>/]/.exec(text);
    if (!root) {
      if (head.length < 4096 && !final) return false;
      if (/<[\w.-]+:worksheet[\s>]/.test(text))
        throw new FastReaderUnsupported('its sheet XML has a prefix bound to an unknown namespace');
      return true;
    }
    const prefix = root[1];
    if (prefix) {
      const rootTagEnd = text.indexOf('>', root.index);
      if (rootTagEnd === -1 && !final && head.length < 4096) return false;
      const bound = mainNamespacePrefix(text.slice(root.index, rootTagEnd === -1 ? undefined : rootTagEnd));
      if (bound !== prefix.slice(0, -1))
        throw new FastReaderUnsupported(
          'its sheet XML uses a namespace prefix the fast reader does not know',
        );
      this.prefix = new PrefixStripper(bound);
    }
    return true;
  }

  private scanPiece(piece: Uint8Array): void {
    if (this.afterSheetData) {
      this.tail.push(piece.slice());
      return;
    }
    let data: Uint8Array;
    if (this.pendingLength === 0) {
      data = piece;
    } else {
      this.reserve(this.pendingLength + piece.length);
      this.pending.set(piece, this.pendingLength);
      data = this.pending.subarray(0, this.pendingLength + piece.length);
    }
    const consumed = this.scan(data);
    const rest = data.length - consumed;
    if (rest === 0) {
      this.pendingLength = 0;
    } else if (data.buffer === this.pending.buffer) {
      this.pending.copyWithin(0, consumed, data.length);
      this.pendingLength = rest;
    } else {
      this.reserve(rest);
      this.pending.set(data.subarray(consumed));
      this.pendingLength = rest;
    }
    if (this.afterSheetData && this.pendingLength > 0) {
      // Everything after </sheetData> (merged cells) is read once the whole sheet is in.
      this.tail.push(this.pending.slice(0, this.pendingLength));
      this.pendingLength = 0;
    }
  }

  /** Merged ranges, read from what followed `</sheetData>` once the whole sheet is in. */
  finish(): MergedRange[] {
    if (this.head) {
      const head = this.head;
      this.head = undefined;
      this.readRoot(head, true);
      this.scanPiece(this.prefix ? this.prefix.strip(head) : head);
    }
    if (this.prefix) {
      const rest = this.prefix.flush();
      if (rest.length > 0) this.scanPiece(rest);
    }
    const length = this.tail.reduce((sum, part) => sum + part.length, 0);
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const part of this.tail) {
      bytes.set(part, offset);
      offset += part.length;
    }
    this.tail.length = 0;
    const text = utf8.decode(bytes);
    const merges: MergedRange[] = [];
    const pattern = /<mergeCell\s[^>]*ref="([^"]*)"/g;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const range = parseMergeRange(match[1] ?? '');
      if (range) merges.push(range);
    }
    return merges;
  }

  private reserve(size: number): void {
    if (this.pending.length >= size) return;
    let capacity = this.pending.length * 2;
    while (capacity < size) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.pending.subarray(0, this.pendingLength));
    this.pending = next;
  }

  /** Scans every complete row of `b`; returns how many bytes were used up. */
  private scan(b: Uint8Array): number {
    const n = b.length;
    let at = 0;
    for (;;) {
      let open = at;
      while (open < n && b[open] !== LT) open++;
      if (open >= n) return n;
      // Enough bytes to tell `<row `, `</sheetData>` and `<sheetData/>` apart.
      if (open + 12 > n) return open;
      const second = b[open + 1];
      if (
        second === LOWER_R &&
        b[open + 2] === LOWER_O &&
        b[open + 3] === LOWER_W &&
        isNameEnd(b[open + 4])
      ) {
        let tagEnd = open + 4;
        while (tagEnd < n && b[tagEnd] !== GT) tagEnd++;
        if (tagEnd >= n) return open;
        const previousRowNumber = this.nextRowNumber;
        const rowNumber = this.rowNumberOf(b, open, tagEnd);
        if (b[tagEnd - 1] === SLASH) {
          at = tagEnd + 1;
          continue;
        }
        const after = this.scanRow(b, rowNumber, tagEnd + 1);
        if (after === -1) {
          // The row continues in the next piece: scan it again from its start then.
          this.nextRowNumber = previousRowNumber;
          return open;
        }
        at = after;
        continue;
      }
      if (startsWith(b, open, END_SHEET_DATA) || startsWith(b, open, EMPTY_SHEET_DATA)) {
        this.afterSheetData = true;
        return open;
      }
      at = open + 1;
    }
  }

  /** The row's `r=` attribute, or the one after the previous row when absent. */
  private rowNumberOf(b: Uint8Array, start: number, tagEnd: number): number {
    let rowNumber = this.nextRowNumber;
    for (let i = start + 4; i + 3 < tagEnd; i++) {
      if (b[i] === SPACE && b[i + 1] === LOWER_R && b[i + 2] === EQUALS && b[i + 3] === QUOTE) {
        let value = 0;
        for (let k = i + 4; k < tagEnd; k++) {
          const code = b[k]!;
          if (code < DIGIT_0 || code > DIGIT_9) break;
          value = value * 10 + (code - DIGIT_0);
        }
        if (value > 0) rowNumber = value;
        break;
      }
    }
    this.nextRowNumber = rowNumber + 1;
    return rowNumber;
  }

  /**
   * Scans the cells of one row up to its `</row>` and returns the index after it, or -1 when the
   * bytes end first (nothing is kept then). The common cell `<c r=".." s=".." t=".."><v>..</v></c>`
   * takes the fast path; anything else (formulas, inline strings) is decoded and read as text.
   */
  private scanRow(b: Uint8Array, rowNumber: number, start: number): number {
    const n = b.length;
    const cells: string[] = [];
    let filled = false;
    let column = -1;
    let at = start;
    for (;;) {
      let open = at;
      while (open < n && b[open] !== LT) open++;
      if (open + 2 >= n) return -1;
      const second = b[open + 1];
      if (second === SLASH) {
        if (open + 6 > n) return -1;
        if (
          b[open + 2] === LOWER_R &&
          b[open + 3] === LOWER_O &&
          b[open + 4] === LOWER_W &&
          b[open + 5] === GT
        ) {
          if (filled) this.rows.push({ rowNumber, cells });
          return open + 6;
        }
        at = open + 2;
        continue;
      }
      if (second !== LOWER_C || !isNameEnd(b[open + 2])) {
        at = open + 1;
        continue;
      }
      // Attributes: r (reference), t (type), s (style); others (cm, vm, ph) do not change the text.
      let type = TYPE_NUMBER;
      let style = 0;
      let explicitColumn = -1;
      let i = open + 2;
      let selfClosing = false;
      for (;;) {
        let code = b[i];
        while (code === SPACE || code === TAB || code === LF || code === CR) code = b[++i];
        if (i >= n) return -1;
        if (code === GT) break;
        if (code === SLASH) {
          selfClosing = true;
          i++;
          break;
        }
        const nameStart = i;
        while (i < n && b[i] !== EQUALS) i++;
        if (i + 1 >= n) return -1;
        const nameLength = i - nameStart;
        const quote = b[i + 1];
        const valueStart = i + 2;
        let valueEnd = valueStart;
        while (valueEnd < n && b[valueEnd] !== quote) valueEnd++;
        if (valueEnd >= n) return -1;
        if (quote !== QUOTE && quote !== APOSTROPHE) {
          // Spaces around "=" are legal XML that no spreadsheet program writes.
          throw new FastReaderUnsupported('its sheet XML has attributes in an unusual form');
        }
        if (nameLength === 1) {
          const nameCode = b[nameStart];
          if (nameCode === LOWER_R) {
            // r="AB12": only the letters matter here; the row comes from <row>.
            let letters = 0;
            for (let k = valueStart; k < valueEnd; k++) {
              const letter = b[k]!;
              if (letter < LETTER_A || letter > LETTER_Z) break;
              letters = letters * 26 + (letter - LETTER_A + 1);
            }
            explicitColumn = letters - 1;
          } else if (nameCode === LOWER_T) {
            type = typeAt(b, valueStart, valueEnd - valueStart);
          } else if (nameCode === LOWER_S) {
            let value = 0;
            for (let k = valueStart; k < valueEnd; k++) value = value * 10 + (b[k]! - DIGIT_0);
            style = value;
          }
        }
        i = valueEnd + 1;
      }
      if (i >= n) return -1;
      column = explicitColumn >= 0 ? explicitColumn : column + 1;
      if (selfClosing) {
        at = i + 1;
        continue;
      }
      let value: string;
      const content = i + 1;
      if (type !== TYPE_INLINE && b[content] === LT && b[content + 1] === LOWER_V && b[content + 2] === GT) {
        // Values hold no "<" (it would be &lt;), so the first one is the start of "</v>".
        const valueStart = content + 3;
        let valueEnd = valueStart;
        while (valueEnd < n && b[valueEnd] !== LT) valueEnd++;
        if (valueEnd + 8 > n) return -1;
        let cellEnd = valueEnd + 4;
        if (
          b[cellEnd] !== LT ||
          b[cellEnd + 1] !== SLASH ||
          b[cellEnd + 2] !== LOWER_C ||
          b[cellEnd + 3] !== GT
        ) {
          cellEnd = indexOfCellEnd(b, valueEnd);
          if (cellEnd === -1) return -1;
        }
        value = this.cellValue(b, valueStart, valueEnd, type, style);
        at = cellEnd + 4;
      } else {
        const cellEnd = indexOfCellEnd(b, content);
        if (cellEnd === -1) return -1;
        // Formulas and inline strings are rare: read them as text with the general helpers.
        const xml = utf8.decode(b.subarray(content, cellEnd));
        value = type === TYPE_INLINE ? inlineText(xml) : this.wrappedValue(xml, type, style);
        at = cellEnd + 4;
      }
      if (value === '') {
        if (this.missedSharedString) {
          this.missedSharedString = false;
          this.firstMissingSharedString ??= { rowNumber, column };
        }
        continue;
      }
      while (cells.length < column) cells.push('');
      cells[column] = value;
      filled = true;
    }
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

  private cellValue(
    b: Uint8Array,
    valueStart: number,
    valueEnd: number,
    type: number,
    style: number,
  ): string {
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
        if (display === NumberDisplay.Elapsed) return excelSerialToDuration(Number(raw));
        return this.dateText(Number(raw), display === NumberDisplay.TimeOnly);
      }
      case TYPE_BOOLEAN:
        return raw.charCodeAt(0) === 49 || raw.startsWith('true') ? 'TRUE' : 'FALSE';
      case TYPE_ERROR:
        return raw.charCodeAt(0) === 35 ? raw : errorCodeText(Number(raw));
      case TYPE_DATE:
        return isoDateTimeText(raw);
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

/** A new array with both; never a view of either (the caller's pieces are not kept). */
function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const END_SHEET_DATA = bytesOf('</sheetData>');
const EMPTY_SHEET_DATA = bytesOf('<sheetData/>');

function startsWith(b: Uint8Array, at: number, expected: Uint8Array): boolean {
  if (at + expected.length > b.length) return false;
  for (let k = 0; k < expected.length; k++) if (b[at + k] !== expected[k]) return false;
  return true;
}

/** The index of the next `</c>` from `from`, or -1. */
function indexOfCellEnd(b: Uint8Array, from: number): number {
  const last = b.length - 4;
  for (let k = from; k <= last; k++) {
    if (b[k] === LT && b[k + 1] === SLASH && b[k + 2] === LOWER_C && b[k + 3] === GT) return k;
  }
  return -1;
}

/** `<is>` text: one `<t>` or rich-text runs, phonetic guides left out, as in shared strings. */
function inlineText(xml: string): string {
  const value = richText(xml, 0, xml.length);
  return value === '' ? '' : decodeXmlText(value);
}
