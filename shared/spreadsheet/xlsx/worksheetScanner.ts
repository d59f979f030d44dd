import type { MergedRange, SheetRow } from '../types';
import { CellText, TYPE_INLINE, TYPE_NUMBER, typeAt } from './cellText';
import { FastReaderUnsupported } from './fastReaderUnsupported';
import { MergeCellCollector } from './mergeCells';
import type { PrefixStripper } from './namespacePrefix';
import { readSheetRoot } from './sheetRoot';

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

const INITIAL_BUFFER = 1 << 16;

/** What the bytes kept from the last piece lack before scanning them again can read anything more. */
const WAIT_NONE = 0;
/** A tag is unfinished: nothing more can be read before its `>` (outside quoted values). */
const WAIT_TAG_END = 1;
/** A cell's content is unfinished: nothing more can be read before its `</c>`. */
const WAIT_CELL_END = 2;

/** The row being read when a piece ended inside it: its cells so far are kept, not read again. */
interface OpenRow {
  rowNumber: number;
  cells: string[];
  filled: boolean;
  /** The column of the last complete cell. */
  column: number;
}

/**
 * Scans worksheet XML bytes that arrive in pieces, turning each complete `<row>` into cell text.
 * It works on the UTF-8 bytes themselves (no text decoding of the markup, no DOM, no regex per
 * cell) because this loop is where an import spends its time: shared-string cells become a table
 * lookup, numbers a few byte comparisons.
 *
 * Every byte is scanned a bounded number of times, however the sheet is cut into pieces: only the
 * unfinished element at the end of a piece is kept (a row's complete cells are read once and kept
 * as text), and it is not scanned again until the bytes that could finish it (its `>` or `</c>`)
 * have arrived. A row of hundreds of megabytes of spaces costs one pass, not one pass per piece.
 */
export class WorksheetScanner {
  readonly rows: SheetRow[] = [];
  /** Bytes handed to the row scan, counted so tests can check the work stays linear. */
  bytesScanned = 0;
  private pending = new Uint8Array(INITIAL_BUFFER);
  private pendingLength = 0;
  private wait = WAIT_NONE;
  /** How far the kept bytes were searched for what they wait for, and the quote open there. */
  private searchedTo = 0;
  private quote = 0;
  private row: OpenRow | undefined;
  /** Where `scanRow` stopped for more bytes: the start of the unfinished element. */
  private resumeAt = 0;
  private afterSheetData = false;
  private readonly mergeCells = new MergeCellCollector();
  private nextRowNumber = 1;
  private readonly text: CellText;
  /** Raw bytes held until the root element says whether the markup carries a namespace prefix. */
  private head: Uint8Array | undefined = new Uint8Array(0);
  private prefix: PrefixStripper | null = null;
  firstMissingSharedString: { rowNumber: number; column: number } | undefined;

  constructor(sharedStrings: readonly string[], displays: Uint8Array, date1904: boolean) {
    this.text = new CellText(sharedStrings, displays, date1904);
  }

  /** Cells whose shared-string index is past the table's end. */
  get missingSharedStrings(): number {
    return this.text.missingSharedStrings;
  }

  /** Scans a piece of the sheet's XML. The piece is read during the call and never kept. */
  push(raw: Uint8Array): void {
    let piece = raw;
    if (this.head) {
      const head = concat(this.head, piece);
      const prefix = readSheetRoot(head, false);
      if (prefix === undefined) {
        this.head = head;
        return;
      }
      this.head = undefined;
      this.prefix = prefix;
      piece = head;
    }
    if (this.prefix) piece = this.prefix.strip(piece);
    this.scanPiece(piece);
  }

  /** Merged ranges, read from what followed `</sheetData>`, once the whole sheet is in. */
  finish(): MergedRange[] {
    if (this.head) {
      const head = this.head;
      this.head = undefined;
      this.prefix = readSheetRoot(head, true) ?? null;
      this.scanPiece(this.prefix ? this.prefix.strip(head) : head);
    }
    if (this.prefix) {
      const rest = this.prefix.flush();
      if (rest.length > 0) this.scanPiece(rest);
    }
    return this.mergeCells.merges;
  }

  private scanPiece(piece: Uint8Array): void {
    if (this.afterSheetData) {
      this.mergeCells.push(piece);
      return;
    }
    let data: Uint8Array;
    if (this.pendingLength === 0) {
      data = piece;
    } else {
      this.reserve(this.pendingLength + piece.length);
      this.pending.set(piece, this.pendingLength);
      this.pendingLength += piece.length;
      data = this.pending.subarray(0, this.pendingLength);
      if (!this.mayFinish(data)) return;
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
    if (this.afterSheetData) {
      // Everything after </sheetData> only holds merged ranges for this reader.
      if (this.pendingLength > 0) this.mergeCells.push(this.pending.subarray(0, this.pendingLength));
      this.pendingLength = 0;
    } else if (this.pendingLength > 0) {
      this.noteWait(this.pending.subarray(0, this.pendingLength));
    }
  }

  /**
   * What the kept bytes (an unfinished element, starting with its `<`) wait for: the end of its tag,
   * the `</c>` of a cell whose tag is complete, or (a few bytes short of telling tags apart) anything.
   */
  private noteWait(kept: Uint8Array): void {
    this.quote = 0;
    this.searchedTo = 1;
    this.wait = WAIT_TAG_END;
    const tagEnd = this.searchTagEnd(kept);
    if (tagEnd === -1) return;
    const isOpenCell = kept[1] === LOWER_C && isNameEnd(kept[2]) && kept[tagEnd - 1] !== SLASH;
    this.wait = isOpenCell ? WAIT_CELL_END : WAIT_NONE;
    this.searchedTo = tagEnd + 1;
  }

  /** Whether the kept bytes now hold what they waited for; searches only the bytes not searched yet. */
  private mayFinish(data: Uint8Array): boolean {
    if (this.wait === WAIT_TAG_END) {
      const tagEnd = this.searchTagEnd(data);
      if (tagEnd === -1) return false;
      if (data[1] !== LOWER_C || !isNameEnd(data[2]) || data[tagEnd - 1] === SLASH) return true;
      this.wait = WAIT_CELL_END;
      this.searchedTo = tagEnd + 1;
    }
    if (this.wait === WAIT_CELL_END) {
      const found = indexOfCellEnd(data, Math.max(this.searchedTo - 3, 0)) !== -1;
      this.searchedTo = data.length;
      return found;
    }
    return true;
  }

  /** The `>` that ends the tag the data starts with, outside quoted values, or -1; resumable. */
  private searchTagEnd(data: Uint8Array): number {
    let quote = this.quote;
    const n = data.length;
    for (let i = this.searchedTo; i < n; i++) {
      const code = data[i]!;
      if (quote !== 0) {
        if (code === quote) quote = 0;
      } else if (code === QUOTE || code === APOSTROPHE) {
        quote = code;
      } else if (code === GT) {
        this.quote = 0;
        return i;
      }
    }
    this.quote = quote;
    this.searchedTo = n;
    return -1;
  }

  private reserve(size: number): void {
    if (this.pending.length >= size) return;
    let capacity = this.pending.length * 2;
    while (capacity < size) capacity *= 2;
    const next = new Uint8Array(capacity);
    next.set(this.pending.subarray(0, this.pendingLength));
    this.pending = next;
  }

  /** Scans every complete row and cell of `b`; returns how many bytes were used up. */
  private scan(b: Uint8Array): number {
    this.bytesScanned += b.length;
    const n = b.length;
    let at = 0;
    if (this.row) {
      at = this.scanRow(b, 0);
      if (at === -1) return this.resumeAt;
    }
    for (;;) {
      let open = at;
      while (open < n && b[open] !== LT) open++;
      if (open >= n) return n;
      // Enough bytes to tell `<row `, `</sheetData>` and `<sheetData/>` apart.
      if (open + 12 > n) return open;
      if (
        b[open + 1] === LOWER_R &&
        b[open + 2] === LOWER_O &&
        b[open + 3] === LOWER_W &&
        isNameEnd(b[open + 4])
      ) {
        let tagEnd = open + 4;
        while (tagEnd < n && b[tagEnd] !== GT) tagEnd++;
        if (tagEnd >= n) return open;
        const rowNumber = this.rowNumberOf(b, open, tagEnd);
        if (b[tagEnd - 1] === SLASH) {
          at = tagEnd + 1;
          continue;
        }
        this.row = { rowNumber, cells: [], filled: false, column: -1 };
        at = this.scanRow(b, tagEnd + 1);
        if (at === -1) return this.resumeAt;
        continue;
      }
      if (startsWith(b, open, END_SHEET_DATA) || startsWith(b, open, EMPTY_SHEET_DATA)) {
        this.afterSheetData = true;
        return open;
      }
      at = open + 1;
    }
  }

  /**
   * A row written as several `<row r="N">` elements (some generators write one per batch of cells)
   * is one row, as in Excel: the later element's cells go into the row already read.
   */
  private addRow(rowNumber: number, cells: string[]): void {
    const last = this.rows[this.rows.length - 1];
    if (last?.rowNumber !== rowNumber) {
      this.rows.push({ rowNumber, cells });
      return;
    }
    cells.forEach((value, column) => {
      if (value === '') return;
      while (last.cells.length < column) last.cells.push('');
      last.cells[column] = value;
    });
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
   * Scans the open row's cells up to its `</row>` and returns the index after it, or -1 when the
   * bytes end first: the complete cells are kept in the open row and `resumeAt` says where the
   * unfinished element starts. The common cell `<c r=".." s=".." t=".."><v>..</v></c>` takes the
   * fast path; anything else (formulas, inline strings) is decoded and read as text.
   */
  private scanRow(b: Uint8Array, start: number): number {
    const row = this.row!;
    const cells = row.cells;
    const n = b.length;
    let column = row.column;
    let at = start;
    const stop = (open: number): number => {
      row.column = column;
      this.resumeAt = open;
      return -1;
    };
    for (;;) {
      let open = at;
      while (open < n && b[open] !== LT) open++;
      if (open + 2 >= n) return stop(Math.min(open, n));
      const second = b[open + 1];
      if (second === SLASH) {
        if (open + 6 > n) return stop(open);
        if (
          b[open + 2] === LOWER_R &&
          b[open + 3] === LOWER_O &&
          b[open + 4] === LOWER_W &&
          b[open + 5] === GT
        ) {
          if (row.filled) this.addRow(row.rowNumber, cells);
          this.row = undefined;
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
        if (i >= n) return stop(open);
        if (code === GT) break;
        if (code === SLASH) {
          selfClosing = true;
          i++;
          break;
        }
        const nameStart = i;
        while (i < n && b[i] !== EQUALS) i++;
        if (i + 1 >= n) return stop(open);
        const nameLength = i - nameStart;
        const quote = b[i + 1];
        const valueStart = i + 2;
        let valueEnd = valueStart;
        while (valueEnd < n && b[valueEnd] !== quote) valueEnd++;
        if (valueEnd >= n) return stop(open);
        if (quote !== QUOTE && quote !== APOSTROPHE) {
          // Spaces around "=" are legal XML that no spreadsheet program writes.
          throw new FastReaderUnsupported('its sheet XML has attributes in an unusual form');
        }
        if (nameLength === 1) {
          const nameCode = b[nameStart];
          if (nameCode === LOWER_R) {
            // r="AB12": only the letters matter here; the row comes from <row>. Excel reads
            // lowercase ones ("d1") too.
            let letters = 0;
            for (let k = valueStart; k < valueEnd; k++) {
              const letter = b[k]! & ~32;
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
      if (i >= n) return stop(open);
      const cellColumn = explicitColumn >= 0 ? explicitColumn : column + 1;
      if (selfClosing) {
        column = cellColumn;
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
        if (valueEnd + 8 > n) return stop(open);
        let cellEnd = valueEnd + 4;
        if (
          b[cellEnd] !== LT ||
          b[cellEnd + 1] !== SLASH ||
          b[cellEnd + 2] !== LOWER_C ||
          b[cellEnd + 3] !== GT
        ) {
          cellEnd = indexOfCellEnd(b, valueEnd);
          if (cellEnd === -1) return stop(open);
        }
        value = this.text.cellValue(b, valueStart, valueEnd, type, style);
        at = cellEnd + 4;
      } else {
        const cellEnd = indexOfCellEnd(b, content);
        if (cellEnd === -1) return stop(open);
        // Formulas and inline strings are rare: read them as text with the general helpers.
        value = this.text.contentText(utf8.decode(b.subarray(content, cellEnd)), type, style);
        at = cellEnd + 4;
      }
      column = cellColumn;
      if (value === '') {
        if (this.text.missedSharedString) {
          this.text.missedSharedString = false;
          this.firstMissingSharedString ??= { rowNumber: row.rowNumber, column };
        }
        continue;
      }
      while (cells.length < column) cells.push('');
      cells[column] = value;
      row.filled = true;
    }
  }
}

const utf8 = new TextDecoder('utf-8');

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
