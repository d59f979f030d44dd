import type { MergedRange } from '../types';

/** Excel's last row and column (1-based row, 0-based column): where whole-row/column ranges end. */
const LAST_ROW = 1_048_576;
const LAST_COLUMN = 16_383;
const LETTER_A = 65;
const LETTER_Z = 90;

/**
 * A cell reference's row and column; a whole-column reference ("C") has no row and a whole-row one
 * ("7") no column, given as -1. Letters are read in either case, as Excel reads them.
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

/** A `<mergeCell>` start tag longer than this is not one a spreadsheet program wrote: it is skipped. */
const MAX_TAG_BYTES = 4096;
const latin1 = new TextDecoder('latin1');
const MERGE_CELL = /<mergeCell\s[^>]*ref="([^"]*)"/g;

/**
 * Collects the merged ranges from what follows `</sheetData>`, piece by piece. Only the last few
 * bytes of a piece are kept (a tag cut in two), so whatever follows the cells costs no memory
 * however large it is.
 */
export class MergeCellCollector {
  readonly merges: MergedRange[] = [];
  private carry = '';

  push(piece: Uint8Array): void {
    // Cell references are ASCII: one character per byte is enough to find them.
    const text = this.carry + latin1.decode(piece);
    MERGE_CELL.lastIndex = 0;
    let used = 0;
    for (let match = MERGE_CELL.exec(text); match; match = MERGE_CELL.exec(text)) {
      const range = parseMergeRange(match[1] ?? '');
      if (range) this.merges.push(range);
      used = match.index + match[0].length;
    }
    // A tag cut in two is kept for the next piece, unless it is longer than any real one.
    const lastOpen = text.lastIndexOf('<');
    const cut = lastOpen >= used && text.indexOf('>', lastOpen) === -1;
    this.carry = cut && text.length - lastOpen <= MAX_TAG_BYTES ? text.slice(lastOpen) : '';
  }
}
