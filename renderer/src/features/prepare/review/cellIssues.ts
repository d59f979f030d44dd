import type { MappedIssue } from '../../../../../shared/mapping';
import type { CellIssueView } from '../../../components/grid/DataGrid';
import type { ServiceError } from './serviceErrors';

/** What the grid shows on one cell: the app's checks, the file's, then the service's errors. */
export function issuesInColumn(
  column: number,
  checks: readonly MappedIssue[] | undefined,
  fileIssues: readonly MappedIssue[] | undefined,
  service: readonly ServiceError[],
  /** Where an error about the whole row is shown (the recipient cell, or the first). */
  rowErrorColumn: number,
): CellIssueView[] | undefined {
  let found: CellIssueView[] | undefined;
  const add = (issue: MappedIssue) => {
    if (issue.columnIndex !== column) return;
    (found ??= []).push({ severity: issue.severity, message: issue.message });
  };
  checks?.forEach(add);
  fileIssues?.forEach(add);
  for (const e of service) {
    if ((e.columnIndex ?? rowErrorColumn) === column)
      (found ??= []).push({ severity: 'error', message: e.message });
  }
  return found;
}

/** A row's problems that belong to no column (a missing mapping target, the metadata count). */
export function rowLevelIssues(
  checks: readonly MappedIssue[] | undefined,
  fileIssues: readonly MappedIssue[] | undefined,
  service: readonly ServiceError[],
): { severity: 'error' | 'warning'; code: string; message: string }[] {
  return [
    ...[...(checks ?? []), ...(fileIssues ?? [])].filter((i) => i.columnIndex === undefined),
    ...service
      .filter((e) => e.columnIndex === null)
      .map((e) => ({ severity: 'error' as const, code: 'SERVICE', message: e.message })),
  ];
}

export interface ProblemLookup {
  hasError(key: number): boolean;
  hasWarning(key: number): boolean;
  /** The column of the row's first problem of that severity. */
  columnOf(key: number, severity: 'error' | 'warning'): number;
}

/**
 * F8 / Shift+F8: the next (previous) row with an error, going round; once no error is left, the next
 * row with a warning. Errors first, because they stop the upload and warnings do not. Null when there
 * is neither.
 */
export function nextProblem(
  rows: readonly { key: number }[],
  from: number,
  direction: 1 | -1,
  look: ProblemLookup,
): { index: number; column: number; severity: 'error' | 'warning' } | null {
  const n = rows.length;
  for (const severity of ['error', 'warning'] as const) {
    for (let step = 1; step <= n; step++) {
      const index = (from + direction * step + n) % n;
      const row = rows[index];
      if (!row) continue;
      if (severity === 'error' ? !look.hasError(row.key) : !look.hasWarning(row.key)) continue;
      return { index, column: look.columnOf(row.key, severity), severity };
    }
  }
  return null;
}
