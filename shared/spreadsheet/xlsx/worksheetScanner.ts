import { errorCodeText } from '../cells/errorText';
import { excelSerialToIso } from '../cells/excelDate';
import { formatNumericText } from '../cells/numberText';
import type { MergedRange, SheetRow } from '../types';
import { NumberDisplay } from './cellStyles';
import { FastReaderUnsupported } from './fastReaderUnsupported';
import { richText } from './sharedStrings';
import { decodeXmlText, detach } from './xmlText';

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const GT = 62;
const SLASH = 47;
const QUOTE = 34;
const APOSTROPHE = 39;
const EQUALS = 61;
const LETTER_A = 65;
const LETTER_Z = 90;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LETTER_C = 99;
const LOWER_V = 118;
const LT = 60;
const LOWER_R = 114;
const LOWER_S = 115;
const LOWER_T = 116;

const isNameEnd = (code: number): boolean =>
  code === SPACE || code === GT || code === SLASH || code === TAB || code === LF || code === CR;

/** Cell types by the first letter of `t=`: s(hared), str / inlineStr, b(oolean), e(rror), d(ate), n(umber). */
const TYPE_NUMBER = 0;
const TYPE_SHARED = 1;
const TYPE_STRING = 2;
const TYPE_INLINE = 3;
const TYPE_BOOLEAN = 4;
const TYPE_ERROR = 5;
const TYPE_DATE = 6;

/** The type from the `t=` value's first letter and length, without slicing it out of the XML. */
function typeAt(text: string, start: number, length: number): number {
  switch (text.charCodeAt(start)) {
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

/** `2026-11-03T00:00:00Z` (a `t="d"` cell) as the same ISO text the numeric dates produce. */
function isoDateCell(value: string): string {
  const trimmed = value.replace(/(\.0+)?Z?$/, '');
  return trimmed.endsWith('T00:00:00') ? trimmed.slice(0, 10) : trimmed;
}

function parseReference(ref: string): { row: number; column: number } {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const code = ref.charCodeAt(i) & ~32;
    if (code < LETTER_A || code > LETTER_Z) break;
    column = column * 26 + (code - LETTER_A + 1);
  }
  return { row: Number(ref.slice(i)), column: column - 1 };
}

/**
 * Scans worksheet XML that arrives in pieces, turning each complete `<row>` into cell text. It is
 * hand-written over indexOf and charCodeAt (no DOM, no regex per cell) because this loop is where
 * all of an import's time goes. Text after the last complete row is carried into the next piece.
 */
export class WorksheetScanner {
  readonly rows: SheetRow[] = [];
  private carry = '';
  private tail = '';
  private afterSheetData = false;
  private checkedRoot = false;
  private nextRowNumber = 1;

  constructor(
    private readonly sharedStrings: readonly string[],
    private readonly displays: Uint8Array,
    private readonly date1904: boolean,
  ) {}

  push(piece: string): void {
    if (this.afterSheetData) {
      this.tail += piece;
      return;
    }
    // join() builds one flat string; `carry + piece` would be a rope, whose charCodeAt is slower in
    // this loop (measured: the scan took 1.5 s with ropes, 1.0 s flat, for 100k rows).
    const text = this.carry.length === 0 ? piece : [this.carry, piece].join('');
    this.carry = '';
    if (!this.checkedRoot) {
      const root = text.indexOf('<worksheet');
      if (root === -1) {
        if (/<\w+:worksheet/.test(text))
          throw new FastReaderUnsupported('its sheet XML uses namespace prefixes');
        if (text.length < 4096) {
          this.carry = text;
          return;
        }
      }
      this.checkedRoot = true;
    }
    let at = 0;
    for (;;) {
      const rowStart = text.indexOf('<row', at);
      if (rowStart === -1 || !isNameEnd(text.charCodeAt(rowStart + 4))) {
        const stop = rowStart === -1 ? -1 : rowStart;
        const endOfData = this.findEndOfSheetData(text, at);
        if (endOfData !== -1) {
          this.afterSheetData = true;
          this.tail = text.slice(endOfData);
          return;
        }
        if (stop !== -1 && stop + 4 < text.length) {
          at = stop + 4;
          continue;
        }
        this.carry = text.slice(at);
        return;
      }
      const tagEnd = text.indexOf('>', rowStart);
      if (tagEnd === -1) {
        this.carry = text.slice(rowStart);
        return;
      }
      if (text.charCodeAt(tagEnd - 1) === SLASH) {
        this.rowNumberOf(text, rowStart, tagEnd);
        at = tagEnd + 1;
        continue;
      }
      const previousRowNumber = this.nextRowNumber;
      const after = this.scanRow(text, this.rowNumberOf(text, rowStart, tagEnd), tagEnd + 1);
      if (after === -1) {
        // The row continues in the next piece: scan it again from its start then.
        this.nextRowNumber = previousRowNumber;
        this.carry = text.slice(rowStart);
        return;
      }
      at = after;
    }
  }

  /** Merged ranges, read from what followed `</sheetData>` once the whole sheet is in. */
  finish(): MergedRange[] {
    const merges: MergedRange[] = [];
    const pattern = /<mergeCell\s[^>]*ref="([A-Za-z]+\d+)(?::([A-Za-z]+\d+))?"/g;
    for (let match = pattern.exec(this.tail); match; match = pattern.exec(this.tail)) {
      const first = parseReference(match[1] ?? '');
      const last = parseReference(match[2] ?? match[1] ?? '');
      merges.push({
        firstRow: first.row,
        lastRow: last.row,
        firstColumn: first.column,
        lastColumn: last.column,
      });
    }
    this.tail = '';
    return merges;
  }

  private findEndOfSheetData(text: string, from: number): number {
    const close = text.indexOf('</sheetData>', from);
    if (close !== -1) return close;
    return text.indexOf('<sheetData/>', from);
  }

  /** The row's `r=` attribute, or the one after the previous row when absent. */
  private rowNumberOf(text: string, start: number, tagEnd: number): number {
    let rowNumber = this.nextRowNumber;
    const attribute = text.indexOf(' r="', start);
    if (attribute !== -1 && attribute < tagEnd) {
      let value = 0;
      for (let i = attribute + 4; i < tagEnd; i++) {
        const code = text.charCodeAt(i);
        if (code < DIGIT_0 || code > DIGIT_9) break;
        value = value * 10 + (code - DIGIT_0);
      }
      if (value > 0) rowNumber = value;
    }
    this.nextRowNumber = rowNumber + 1;
    return rowNumber;
  }

  /**
   * Scans the cells of one row up to its `</row>` and returns the index after it, or -1 when the
   * piece ends first (nothing is kept then). The common cell `<c r=".." s=".." t=".."><v>..</v></c>`
   * costs one indexOf; anything else (formulas, inline strings) takes the general path.
   */
  private scanRow(text: string, rowNumber: number, start: number): number {
    const length = text.length;
    const cells: string[] = [];
    let filled = false;
    let column = -1;
    let at = start;
    for (;;) {
      // After a cell the next tag usually starts right away; indexOf is a call worth skipping.
      const open = text.charCodeAt(at) === LT ? at : text.indexOf('<', at);
      if (open === -1) return -1;
      const second = text.charCodeAt(open + 1);
      if (second === SLASH) {
        if (open + 6 > length) return -1;
        if (text.startsWith('</row>', open)) {
          if (filled) this.rows.push({ rowNumber, cells });
          return open + 6;
        }
        at = open + 2;
        continue;
      }
      if (open + 3 > length) return -1;
      if (second !== LETTER_C || !isNameEnd(text.charCodeAt(open + 2))) {
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
        let code = text.charCodeAt(i);
        while (code === SPACE || code === TAB || code === LF || code === CR) code = text.charCodeAt(++i);
        if (code === GT) break;
        if (code === SLASH) {
          selfClosing = true;
          i++;
          break;
        }
        if (i >= length) return -1;
        const nameStart = i;
        while (code !== EQUALS && i < length) code = text.charCodeAt(++i);
        const nameLength = i - nameStart;
        const nameCode = text.charCodeAt(nameStart);
        const quote = text.charCodeAt(i + 1);
        const valueStart = i + 2;
        let valueEnd = valueStart;
        while (text.charCodeAt(valueEnd) !== quote && valueEnd < length) valueEnd++;
        if (valueEnd >= length) return -1;
        if (quote !== QUOTE && quote !== APOSTROPHE) {
          // Spaces around "=" are legal XML that no spreadsheet program writes.
          throw new FastReaderUnsupported('its sheet XML has attributes in an unusual form');
        }
        if (nameLength === 1) {
          if (nameCode === LOWER_R) {
            // r="AB12": only the letters matter here; the row comes from <row>.
            let letters = 0;
            for (let k = valueStart; k < valueEnd; k++) {
              const letter = text.charCodeAt(k);
              if (letter < LETTER_A || letter > LETTER_Z) break;
              letters = letters * 26 + (letter - LETTER_A + 1);
            }
            explicitColumn = letters - 1;
          } else if (nameCode === LOWER_T) {
            type = typeAt(text, valueStart, valueEnd - valueStart);
          } else if (nameCode === LOWER_S) {
            let value = 0;
            for (let k = valueStart; k < valueEnd; k++) value = value * 10 + (text.charCodeAt(k) - DIGIT_0);
            style = value;
          }
        }
        i = valueEnd + 1;
      }
      if (i >= length) return -1;
      column = explicitColumn >= 0 ? explicitColumn : column + 1;
      if (selfClosing) {
        at = i + 1;
        continue;
      }
      let value: string;
      const content = i + 1;
      if (
        type !== TYPE_INLINE &&
        text.charCodeAt(content) === LT &&
        text.charCodeAt(content + 1) === LOWER_V &&
        text.charCodeAt(content + 2) === GT
      ) {
        // Values are short and hold no "<" (it would be &lt;), so a plain loop finds "</v>".
        const valueStart = content + 3;
        let valueEnd = valueStart;
        while (valueEnd < length && text.charCodeAt(valueEnd) !== LT) valueEnd++;
        if (valueEnd + 8 > length) return -1;
        let cellEnd = valueEnd + 4;
        if (
          text.charCodeAt(cellEnd) !== LT ||
          text.charCodeAt(cellEnd + 1) !== SLASH ||
          text.charCodeAt(cellEnd + 2) !== LETTER_C ||
          text.charCodeAt(cellEnd + 3) !== GT
        ) {
          cellEnd = text.indexOf('</c>', valueEnd);
          if (cellEnd === -1) return -1;
        }
        value = this.cellValue(text, valueStart, valueEnd, type, style);
        at = cellEnd + 4;
      } else {
        const cellEnd = text.indexOf('</c>', i + 1);
        if (cellEnd === -1) return -1;
        value =
          type === TYPE_INLINE
            ? this.inlineText(text, i + 1, cellEnd)
            : this.wrappedValue(text, i + 1, cellEnd, type, style);
        at = cellEnd + 4;
      }
      if (value === '') continue;
      while (cells.length < column) cells.push('');
      cells[column] = value;
      filled = true;
    }
  }

  /** A cell whose `<v>` is not first (a formula precedes it) or is absent. */
  private wrappedValue(text: string, start: number, end: number, type: number, style: number): string {
    const open = text.indexOf('<v', start);
    if (open === -1 || open >= end) return '';
    const valueStart = text.indexOf('>', open) + 1;
    if (text.charCodeAt(valueStart - 2) === SLASH) return '';
    const valueEnd = text.indexOf('</v>', valueStart);
    if (valueEnd === -1 || valueEnd > end) return '';
    return this.cellValue(text, valueStart, valueEnd, type, style);
  }

  private cellValue(text: string, valueStart: number, valueEnd: number, type: number, style: number): string {
    switch (type) {
      case TYPE_SHARED: {
        let index = 0;
        for (let k = valueStart; k < valueEnd; k++) index = index * 10 + (text.charCodeAt(k) - DIGIT_0);
        return this.sharedStrings[index] ?? '';
      }
      case TYPE_NUMBER: {
        const raw = text.slice(valueStart, valueEnd);
        const display = this.displays[style] ?? NumberDisplay.Number;
        if (display === NumberDisplay.Number) return formatNumericText(raw);
        return excelSerialToIso(Number(raw), this.date1904, display === NumberDisplay.TimeOnly);
      }
      case TYPE_BOOLEAN:
        return text.charCodeAt(valueStart) === 49 || text.startsWith('true', valueStart) ? 'TRUE' : 'FALSE';
      case TYPE_ERROR: {
        const raw = text.slice(valueStart, valueEnd);
        return raw.charCodeAt(0) === 35 ? raw : errorCodeText(Number(raw));
      }
      case TYPE_DATE:
        return isoDateCell(text.slice(valueStart, valueEnd));
      default:
        return detach(decodeXmlText(text.slice(valueStart, valueEnd)));
    }
  }

  /** `<is>` text: one `<t>` or rich-text runs, phonetic guides left out, as in shared strings. */
  private inlineText(text: string, start: number, end: number): string {
    const value = richText(text, start, end);
    return value === '' ? '' : detach(decodeXmlText(value));
  }
}
