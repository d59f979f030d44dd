import type { SheetRow } from '../types';
import { isBlankCell, looseNumber } from './cellKinds';

const TOTAL_LABEL = /^(grand\s+|sub-?)?totals?\s*:?$|^sum\s*:?$/i;
/** Cent-level tolerance: a totals row is usually typed or rounded to the cent. */
const TOLERANCE = 0.005;

export function hasTotalLabel(row: SheetRow): boolean {
  return row.cells.some((cell) => TOTAL_LABEL.test(cell.trim()));
}

/**
 * A row with no label but a lone number that equals the sum of its column above, while the rest of
 * the row (the id, the donor) is empty: a formula like =SUM(D4:D99) with no caption.
 */
function isUnlabelledSum(row: SheetRow, dataRows: readonly SheetRow[]): boolean {
  const filled = row.cells.filter((cell) => !isBlankCell(cell));
  if (filled.length !== 1 || dataRows.length < 2) return false;
  const column = row.cells.findIndex((cell) => !isBlankCell(cell));
  const total = looseNumber(row.cells[column] ?? '');
  if (total === undefined) return false;
  let sum = 0;
  let numbers = 0;
  for (const data of dataRows) {
    const value = looseNumber(data.cells[column] ?? '');
    if (value === undefined) continue;
    sum += value;
    numbers++;
  }
  return numbers >= 2 && Math.abs(sum - total) <= TOLERANCE * Math.max(1, numbers / 100);
}

/** Whether the last data row is a totals row rather than a donation. */
export function isTotalsRow(last: SheetRow, rowsAbove: readonly SheetRow[]): boolean {
  return hasTotalLabel(last) || isUnlabelledSum(last, rowsAbove);
}

/**
 * The parts of the unlabelled-sum test, for a reader that sees the rows above once, as they pass:
 * the row's lone number and its column (undefined when the row cannot be such a sum), then
 * `isSumOf` once the column's numbers above are added up.
 */
export function loneNumber(row: SheetRow): { column: number; total: number } | undefined {
  const filled = row.cells.filter((cell) => !isBlankCell(cell));
  if (filled.length !== 1) return undefined;
  const column = row.cells.findIndex((cell) => !isBlankCell(cell));
  const total = looseNumber(row.cells[column] ?? '');
  return total === undefined ? undefined : { column, total };
}

/** Whether `total` is the sum of the `numbers` values above (that add up to `sum`), `dataRows` rows in all. */
export function isSumOf(total: number, sum: number, numbers: number, dataRows: number): boolean {
  return dataRows >= 2 && numbers >= 2 && Math.abs(sum - total) <= TOLERANCE * Math.max(1, numbers / 100);
}
