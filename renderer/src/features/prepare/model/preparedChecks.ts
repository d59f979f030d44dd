import type { WorkspaceRow } from '../../../../../shared/contract';
import { canonicalJson } from '../../../../../shared/donation';
import type { RowChecker, WorkspaceMapping } from '../../../../../shared/workspace';
import type { PreparedChecks } from '../import/importClient';

/**
 * The import worker's check stands for this one only when it is certainly the same: the same
 * mapping, the same number style, and rows still keyed by their position.
 */
export function canUsePrepared(
  ready: Pick<PreparedChecks, 'mapping' | 'seed'>,
  mapping: WorkspaceMapping,
  checker: Pick<RowChecker, 'numberStyle'>,
  rows: readonly WorkspaceRow[],
): boolean {
  if (ready.seed.numberStyle !== checker.numberStyle || ready.seed.flags.length !== rows.length) return false;
  if (canonicalJson(ready.mapping) !== canonicalJson(mapping)) return false;
  return rows.every((row, i) => row.key === i);
}
