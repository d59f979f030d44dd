import { SpreadsheetReadError } from '../errors';
import type { ReadLimits } from '../limits';
import type { SheetRow } from '../types';
import { isBlankCell } from './cellKinds';

/** The way out a person has when a sheet is too large for the app. */
const WHAT_TO_DO =
  'Split it into smaller files, or use the command line, which reads files of any size: donation-desk build FILE --out bulk.json.gz';

/** A sheet larger than the app can hold; refused as soon as the reader passes the limit. */
export class SheetTooLargeError extends SpreadsheetReadError {
  constructor(
    readonly limit: 'rows' | 'cells',
    /** Rows read when the reader stopped. */
    readonly rowsRead: number,
    maximum: number,
  ) {
    super(
      limit === 'rows'
        ? `This sheet has more than ${maximum.toLocaleString('en-US')} rows, more than the app can hold. ${WHAT_TO_DO}`
        : `This sheet has more than ${maximum.toLocaleString('en-US')} cells (rows × columns), more than the app can hold. ${WHAT_TO_DO}`,
      { limit, rowsRead, maximum },
    );
    this.name = 'SheetTooLargeError';
  }
}

/**
 * Counts rows as a reader hands them out and refuses the sheet the moment it passes `maxRows` rows
 * or `maxCells` cells (filled rows × the widest row so far, trailing blank cells left out), so a
 * file too large to hold is never read whole.
 */
export class SheetSizeGuard {
  private filledRows = 0;
  private width = 0;
  private readonly maxRows: number;
  private readonly maxCells: number;

  constructor(limits: Pick<ReadLimits, 'maxRows' | 'maxCells'>) {
    this.maxRows = limits.maxRows;
    this.maxCells = limits.maxCells;
  }

  add(row: SheetRow): void {
    if (row.rowNumber > this.maxRows) throw new SheetTooLargeError('rows', row.rowNumber, this.maxRows);
    let used = row.cells.length;
    while (used > 0 && isBlankCell(row.cells[used - 1])) used--;
    if (used === 0) return;
    this.filledRows++;
    if (used > this.width) this.width = used;
    if (this.filledRows * this.width > this.maxCells)
      throw new SheetTooLargeError('cells', row.rowNumber, this.maxCells);
  }
}
