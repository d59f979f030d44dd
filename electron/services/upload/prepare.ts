import { fingerprintDonation, type DonationAttributes } from '../../../shared/donation';
import {
  checkRow,
  makeRowChecker,
  parseWorkspaceMapping,
  type CurrencyTotal,
  type RowChecker,
} from '../../../shared/workspace';
import type { Workspace } from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { bulkEntry } from '../../../shared/bulk-file/buildBulkFile';
import { utf8Length, type BulkFilePart } from '../../../shared/bulk-file/serializeBulkFile';

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

/** Rows checked between two turns of the event loop (about 15 ms of work each, measured). */
const SLICE = 1_000;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Main's own check of the workspace with the shared rules, whatever the renderer said: every row
 * through the mapping and the donation rules, the fingerprint of each valid one. Done in slices so
 * the main process stays responsive (100k rows measured about 1.2 s of work in all). The file-level
 * warnings (duplicates, outliers) are left to the review screen: they never stop an upload.
 */
export async function validateWorkspace(
  workspace: Workspace,
  onlyKeys?: ReadonlySet<number>,
  onProgress?: (done: number, total: number) => void,
): Promise<ValidatedWorkspace> {
  const mapping = parseWorkspaceMapping(workspace.mapping);
  if (!mapping) {
    throw new DeskFailure(
      'NOT_MAPPED',
      `“${workspace.name}” has no usable column mapping yet. Map its columns before uploading.`,
    );
  }
  const checker = makeRowChecker(workspace.id, workspace.headers, mapping, workspace.rows);
  const referenceKey = checker.referenceKey;
  const ignore = referenceKey ? { ignoreMetadataKeys: [referenceKey] } : {};
  const ready: ReadyRow[] = [];
  const invalid: ValidatedWorkspace['invalid'] = [];
  const rows = onlyKeys ? workspace.rows.filter((r) => onlyKeys.has(r.key)) : workspace.rows;
  for (let start = 0; start < rows.length; start += SLICE) {
    if (start > 0) {
      onProgress?.(start, rows.length);
      await nextTurn();
    }
    for (const row of rows.slice(start, start + SLICE)) {
      const result = checkRow(checker, row);
      if (result.ok) {
        ready.push({
          key: row.key,
          rowNumber: row.rowNumber,
          donation: result.donation,
          fingerprint: fingerprintDonation(result.donation, ignore),
        });
      } else invalid.push({ key: row.key, rowNumber: row.rowNumber });
    }
  }
  onProgress?.(rows.length, rows.length);
  const mappingProblems = checker.compiled.problems
    .filter((p) => p.severity === 'error')
    .map((p) => p.message);
  return {
    workspace,
    checker,
    referenceKey,
    ready,
    invalid,
    mappingProblems,
    totals: totalsOf(ready.map((r) => r.donation)),
  };
}

/**
 * Where to split the upload into files: none above `maxRows` donations or `maxBytes` of JSON. The
 * same rule as planBulkFiles in shared/bulk-file, measured in slices between event-loop turns,
 * because sizing 100k donations (one JSON.stringify each) otherwise blocks the main process ~0.5 s.
 */
export async function planParts(
  donations: readonly DonationAttributes[],
  limits: { maxRows: number; maxBytes: number },
): Promise<BulkFilePart[]> {
  const frame = '{"data":[]}'.length;
  const parts: BulkFilePart[] = [];
  let start = 0;
  let bytes = frame;
  for (let i = 0; i < donations.length; i++) {
    if (i > 0 && i % SLICE === 0) await nextTurn();
    const entryBytes = utf8Length(JSON.stringify(bulkEntry(donations[i] as DonationAttributes)));
    const withComma = i === start ? entryBytes : entryBytes + 1;
    if (i > start && (i - start >= limits.maxRows || bytes + withComma > limits.maxBytes)) {
      parts.push({ start, end: i, bytes });
      start = i;
      bytes = frame + entryBytes;
    } else bytes += withComma;
  }
  if (donations.length > start) parts.push({ start, end: donations.length, bytes });
  return parts;
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
