import type { WorkspaceRow } from '../../../../../shared/contract';
import type { CheckableDonation, FileIssue } from '../../../../../shared/donation';
import type { MappedIssue } from '../../../../../shared/mapping';
import type { AcrossRowsRequest } from './acrossRowsState';

/** How the across-rows warnings name a row: its number in the sheet, or "new N" for one added here. */
export const rowLabels = (rows: readonly WorkspaceRow[]) =>
  rows.map((r, i) => String(r.rowNumber ?? `new ${i + 1}`));

/** Every row, for a worker that starts again (a new worker, or a new mapping). */
export function resetRequest(
  id: number,
  rows: readonly WorkspaceRow[],
  donationOf: (key: number) => CheckableDonation | undefined,
  referenceKey: string | null,
): AcrossRowsRequest {
  const keys = rows.map((r) => r.key);
  return {
    type: 'reset',
    id,
    keys,
    labels: rowLabels(rows),
    donations: keys.map(donationOf),
    ignoreMetadataKeys: referenceKey ? [referenceKey] : [],
  };
}

/**
 * What changed since the worker's last message: the donations of the rows edited and, when rows were
 * added, removed or moved, the new order. Null when nothing did.
 */
export function updateRequest(
  id: number,
  before: readonly WorkspaceRow[],
  rows: readonly WorkspaceRow[],
  changedKeys: Iterable<number>,
  donationOf: (key: number) => CheckableDonation | undefined,
): AcrossRowsRequest | null {
  const orderChanged = before.length !== rows.length || before.some((r, i) => r.key !== rows[i]?.key);
  const changed = [...changedKeys].map((key): [number, CheckableDonation | undefined] => [
    key,
    donationOf(key),
  ]);
  if (!orderChanged && changed.length === 0) return null;
  return {
    type: 'update',
    id,
    changed,
    ...(orderChanged ? { keys: rows.map((r) => r.key), labels: rowLabels(rows) } : {}),
  };
}

/** The across-rows warnings by row key, each on the cell of the field it is about. */
export function fileIssuesByRow(
  issues: readonly FileIssue[],
  keys: readonly number[],
  columnOfField: ReadonlyMap<string, { header: string; index: number }>,
): Map<number, MappedIssue[]> {
  const byKey = new Map<number, MappedIssue[]>();
  for (const issue of issues) {
    const key = keys[issue.row];
    if (key === undefined) continue;
    const column = columnOfField.get(issue.field);
    const placed: MappedIssue = {
      ...issue,
      ...(column ? { column: column.header, columnIndex: column.index } : {}),
    };
    byKey.set(key, [...(byKey.get(key) ?? []), placed]);
  }
  return byKey;
}
