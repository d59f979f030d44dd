export interface GridColumn {
  header: string;
  /** What the column is mapped to, shown under the header (e.g. "Amount"). */
  target?: string;
  width?: number;
}

export interface GridRow {
  key: number;
  rowNumber: number | null;
  cells: string[];
}

export interface CellIssueView {
  severity: 'error' | 'warning';
  message: string;
}

export interface CellChangeRequest {
  key: number;
  column: number;
  value: string;
}

export interface DataGridHandle {
  /** Moves the active cell (and the keyboard focus) to a row index and column, scrolling it into view. */
  goTo(rowIndex: number, column: number): void;
  focus(): void;
}

export interface ActiveCell {
  row: number;
  col: number;
}

export const ROW_HEIGHT = 32;
/** The header row's height (a column's name and what it is mapped to, on two lines). */
export const GRID_HEADER_HEIGHT = 56;
/**
 * The grid's height on a page: what the window leaves below the workspace's details, but never
 * less than eight rows, so that at any zoom some rows show (the page scrolls instead).
 */
export const GRID_HEIGHT = `max(calc(100vh - 330px), ${GRID_HEADER_HEIGHT + 8 * ROW_HEIGHT + 2}px)`;
export const NUMBER_WIDTH = 64;
export const DEFAULT_WIDTH = 160;
