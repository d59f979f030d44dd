import type { MergedRange, SheetRow } from '../types';

/**
 * Merged ranges cut to the rows and columns the sheet uses. A whole-row (`1:1`) or whole-column
 * (`A:A`) merge reaches Excel's last column or row; cut to the table it is what it looks like on
 * screen (a banner across the table, a column merged down to its last row), and the layout rules
 * treat it like any other merge without walking 16,384 columns or a million rows.
 */
export function clipMerges(merges: readonly MergedRange[], rows: readonly SheetRow[]): MergedRange[] {
  if (merges.length === 0) return [];
  let lastRow = 0;
  let lastColumn = 0;
  for (const row of rows) {
    if (row.rowNumber > lastRow) lastRow = row.rowNumber;
    if (row.cells.length - 1 > lastColumn) lastColumn = row.cells.length - 1;
  }
  const clipped: MergedRange[] = [];
  for (const merge of merges) {
    if (merge.firstRow > lastRow || merge.firstColumn > lastColumn) continue;
    clipped.push({
      firstRow: merge.firstRow,
      lastRow: Math.min(merge.lastRow, lastRow),
      firstColumn: merge.firstColumn,
      lastColumn: Math.min(merge.lastColumn, lastColumn),
    });
  }
  return clipped;
}
