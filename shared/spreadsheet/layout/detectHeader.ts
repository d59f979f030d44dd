import type { MergedRange, SheetRow } from '../types';
import { isBlankCell, looksLikeValue } from './cellKinds';

/** Title blocks above a table are short; the header is looked for among the first rows only. */
const CANDIDATE_ROWS = 20;
const ROWS_BELOW = 10;
/** How far below the best score an earlier row may be and still be taken as the header. */
const NEAR_BEST = 3;

function headerScore(rows: readonly SheetRow[], index: number, merges: readonly MergedRange[]): number {
  const row = rows[index];
  if (!row) return -Infinity;
  const filledColumns = new Set<number>();
  const distinct = new Set<string>();
  let textCells = 0;
  let valueCells = 0;
  row.cells.forEach((cell, column) => {
    if (isBlankCell(cell)) return;
    filledColumns.add(column);
    distinct.add(cell.trim().toLowerCase());
    if (looksLikeValue(cell)) valueCells++;
    else textCells++;
  });
  for (const merge of merges) {
    if (
      merge.firstRow <= row.rowNumber &&
      merge.lastRow >= row.rowNumber &&
      filledColumns.has(merge.firstColumn)
    ) {
      for (let c = merge.firstColumn; c <= merge.lastColumn; c++) filledColumns.add(c);
    }
  }
  // Columns that the rows below fill at least half the time should each have a title here.
  const below = rows.slice(index + 1, index + 1 + ROWS_BELOW);
  const fillCounts = new Map<number, number>();
  const valueCounts = new Map<number, number>();
  for (const next of below) {
    next.cells.forEach((cell, column) => {
      if (isBlankCell(cell)) return;
      fillCounts.set(column, (fillCounts.get(column) ?? 0) + 1);
      if (looksLikeValue(cell)) valueCounts.set(column, (valueCounts.get(column) ?? 0) + 1);
    });
  }
  // A title over a column of amounts or dates is the strongest sign of a header.
  let contrast = 0;
  row.cells.forEach((cell, column) => {
    const fill = fillCounts.get(column) ?? 0;
    if (!isBlankCell(cell) && !looksLikeValue(cell) && fill > 0 && (valueCounts.get(column) ?? 0) * 2 > fill)
      contrast++;
  });
  let dataColumns = 0;
  let titledColumns = 0;
  for (const [column, count] of fillCounts) {
    if (count * 2 < below.length) continue;
    dataColumns++;
    if (filledColumns.has(column)) titledColumns++;
  }
  const coverage = dataColumns === 0 ? 0 : titledColumns / dataColumns;
  let score = textCells + distinct.size * 0.5 + coverage * 4 + contrast - valueCells * 2;
  if (textCells + valueCells < 2) score -= 5;
  if (below.length === 0) score -= 3;
  return score;
}

/**
 * Finds the header among the first non-blank rows: the row with the most distinct text titles that
 * also covers the columns the rows below fill. Title lines ("ACME Corp donations — November")
 * have a single cell and lose; data rows lose on their numbers and dates. Ties go to the earlier
 * row, since a header sits above rows that look like it. `rows` holds non-blank rows only.
 */
export function detectHeaderIndex(rows: readonly SheetRow[], merges: readonly MergedRange[]): number {
  const limit = Math.min(rows.length, CANDIDATE_ROWS);
  const scores: number[] = [];
  let best = 0;
  for (let index = 0; index < limit; index++) {
    scores.push(headerScore(rows, index, merges));
    if ((scores[index] ?? -Infinity) > (scores[best] ?? -Infinity) + 1e-9) best = index;
  }
  // When the rows are all text, the first data row can outscore a header with a blank title; an
  // earlier row of titles almost as good is the header.
  for (let index = 0; index < best; index++) {
    if (
      (scores[index] ?? -Infinity) >= (scores[best] ?? -Infinity) - NEAR_BEST &&
      textCellCount(rows[index]) >= 2
    )
      return index;
  }
  return best;
}

function textCellCount(row: SheetRow | undefined): number {
  return (row?.cells ?? []).filter((cell) => !isBlankCell(cell) && !looksLikeValue(cell)).length;
}
