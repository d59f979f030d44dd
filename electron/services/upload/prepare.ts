import { fingerprintDonation, type DonationAttributes } from '../../../shared/donation';
import {
  checkWorkspace,
  parseWorkspaceMapping,
  summarise,
  type CurrencyTotal,
  type RowChecker,
} from '../../../shared/workspace';
import type { Workspace } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';

export interface ReadyRow {
  key: number;
  rowNumber: number | null;
  donation: DonationAttributes;
  /** Content fingerprint without the reference pair, so the same gift from another workspace matches. */
  fingerprint: string;
}

export interface ValidatedWorkspace {
  workspace: Workspace;
  checker: RowChecker;
  referenceKey: string | null;
  ready: ReadyRow[];
  invalid: Array<{ key: number; rowNumber: number | null }>;
  /** Mapping-level errors (a required column not mapped): nothing can be sent until they are fixed. */
  mappingProblems: string[];
  totals: CurrencyTotal[];
}

/**
 * Main's own check of the workspace with the shared rules, whatever the renderer said: every row
 * through the mapping and the donation rules, the fingerprint of each valid one.
 */
export function validateWorkspace(workspace: Workspace, onlyKeys?: ReadonlySet<number>): ValidatedWorkspace {
  const mapping = parseWorkspaceMapping(workspace.mapping);
  if (!mapping) {
    throw new DeskFailure(
      'NOT_MAPPED',
      `“${workspace.name}” has no usable column mapping yet. Map its columns before uploading.`,
    );
  }
  const check = checkWorkspace(workspace.id, workspace.headers, mapping, workspace.rows);
  const referenceKey = check.checker.referenceKey;
  const ignore = referenceKey ? { ignoreMetadataKeys: [referenceKey] } : {};
  const ready: ReadyRow[] = [];
  const invalid: ValidatedWorkspace['invalid'] = [];
  const considered: typeof check.results = [];
  workspace.rows.forEach((row, i) => {
    if (onlyKeys && !onlyKeys.has(row.key)) return;
    const result = check.results[i];
    if (!result) return;
    considered.push(result);
    if (result.ok) {
      ready.push({
        key: row.key,
        rowNumber: row.rowNumber,
        donation: result.donation,
        fingerprint: fingerprintDonation(result.donation, ignore),
      });
    } else invalid.push({ key: row.key, rowNumber: row.rowNumber });
  });
  const mappingProblems = check.checker.compiled.problems
    .filter((p) => p.severity === 'error')
    .map((p) => p.message);
  return {
    workspace,
    checker: check.checker,
    referenceKey,
    ready,
    invalid,
    mappingProblems,
    totals: summarise(considered, new Map()).totals,
  };
}

export function totalsOf(donations: readonly DonationAttributes[]): CurrencyTotal[] {
  const totals = new Map<string, CurrencyTotal>();
  for (const d of donations) {
    const t = totals.get(d.funds.currencyCode) ?? { currencyCode: d.funds.currencyCode, count: 0, amount: 0 };
    t.count++;
    t.amount += d.funds.amount;
    totals.set(d.funds.currencyCode, t);
  }
  return [...totals.values()].sort((a, b) => b.count - a.count);
}
