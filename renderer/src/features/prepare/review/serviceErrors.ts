import { serviceErrorMessage } from '../serviceErrorMessage';

/** An error the service gave on an upload, shown on its cell (or its row) while the cell is unchanged. */
export interface ServiceError {
  rowKey: number | null;
  columnIndex: number | null;
  message: string;
  /** The cell's value when the error was shown: once changed, the error no longer applies to it. */
  value: string | null;
}

/** The service's errors of an upload, each with the value its cell has now. */
export function serviceErrorsFrom(
  issues: readonly Parameters<typeof serviceErrorMessage>[0][],
  rows: readonly { key: number; cells: string[] }[],
): ServiceError[] {
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return issues.map((i) => ({
    rowKey: i.rowKey,
    columnIndex: i.columnIndex,
    message: serviceErrorMessage(i),
    value:
      i.rowKey !== null && i.columnIndex !== null ? (byKey.get(i.rowKey)?.cells[i.columnIndex] ?? '') : null,
  }));
}

/** The errors that still apply to a row: about the whole row, or on a cell that has not changed since. */
export function stillApplying(
  errors: readonly ServiceError[],
  key: number,
  row: { cells: string[] } | undefined,
): ServiceError[] {
  return errors.filter(
    (e) => e.rowKey === key && (e.columnIndex === null || (row?.cells[e.columnIndex] ?? '') === e.value),
  );
}
