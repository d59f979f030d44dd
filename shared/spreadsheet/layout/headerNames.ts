import type { MergedRange, SheetRow } from '../types';
import { isBlankCell, looksLikeValue } from './cellKinds';

export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** Header text on one line: Excel headers often wrap with Alt+Enter. */
function tidy(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** The header row with each horizontally merged cell's title copied into every column it spans. */
function spreadMerged(row: SheetRow, merges: readonly MergedRange[], width: number): string[] {
  const titles = Array.from({ length: width }, (_, c) => tidy(row.cells[c]));
  for (const merge of merges) {
    if (merge.firstRow > row.rowNumber || merge.lastRow < row.rowNumber) continue;
    const title = tidy(row.cells[merge.firstColumn]);
    for (let c = merge.firstColumn; c <= merge.lastColumn && c < width; c++)
      if (titles[c] === '') titles[c] = title;
  }
  return titles;
}

/**
 * Whether the row under the header is a second header line: the header has a horizontal merge
 * ("Donor" over two columns), and the next row has titles, not values, under it.
 */
export function isSecondHeaderRow(
  header: SheetRow,
  next: SheetRow | undefined,
  merges: readonly MergedRange[],
): boolean {
  if (!next || next.rowNumber !== header.rowNumber + 1) return false;
  const spans = merges.filter(
    (m) => m.firstRow === header.rowNumber && m.lastRow === header.rowNumber && m.lastColumn > m.firstColumn,
  );
  if (spans.length === 0) return false;
  const filled = next.cells.filter((cell) => !isBlankCell(cell));
  if (filled.length === 0 || filled.some(looksLikeValue)) return false;
  return spans.some((m) =>
    next.cells.slice(m.firstColumn, m.lastColumn + 1).some((cell) => !isBlankCell(cell)),
  );
}

/** "Amount", "Amount" → "Amount", "Amount (2)", never colliding with a title already present. */
function makeUnique(titles: string[]): string[] {
  const key = (title: string): string => title.toLowerCase();
  const originals = new Set(titles.map(key));
  const taken = new Set<string>();
  return titles.map((title) => {
    let unique = title;
    if (taken.has(key(unique))) {
      let n = 2;
      do unique = `${title} (${n++})`;
      while (taken.has(key(unique)) || originals.has(key(unique)));
    }
    taken.add(key(unique));
    return unique;
  });
}

/**
 * Column titles from one or two header rows: merged titles spread over their columns and, for two
 * rows, joined with the title below ("Donor" + "Email" → "Donor Email"); empty ones become
 * "Column C"; repeats get "(2)", "(3)".
 */
export function buildHeaderNames(
  header: SheetRow,
  second: SheetRow | undefined,
  merges: readonly MergedRange[],
  width: number,
): string[] {
  const top = spreadMerged(header, merges, width);
  const bottom = second ? spreadMerged(second, merges, width) : undefined;
  const titles = top.map((title, column) => {
    const below = bottom?.[column] ?? '';
    const joined = below === '' || below === title ? title : title === '' ? below : `${title} ${below}`;
    return joined === '' ? `Column ${columnLetters(column)}` : joined;
  });
  return makeUnique(titles);
}
