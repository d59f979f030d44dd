import { detectNumberStyle, type NumberStyle } from '../amounts';
import { checkFile, type DonationAttributes, type FileIssue } from '../donation';
import {
  applyMapping,
  compileMapping,
  makeReference,
  type CompiledMapping,
  type MappedIssue,
  type MappedRow,
} from '../mapping';
import type { WorkspaceMapping } from './workspaceMapping';

export interface CheckableRow {
  key: number;
  rowNumber: number | null;
  cells: readonly string[];
}

/** Everything the rules need to check a row, resolved once per file and mapping. */
export interface RowChecker {
  compiled: CompiledMapping;
  numberStyle: NumberStyle;
  referenceKey: string | null;
  workspaceRef: string;
  headers: readonly string[];
}

/** The short workspace part of each donation's reference metadata value. */
export function workspaceRef(workspaceId: string): string {
  return workspaceId.replace(/-/g, '').slice(0, 8);
}

export function makeRowChecker(
  workspaceId: string,
  headers: readonly string[],
  mapping: WorkspaceMapping,
  rows: readonly Pick<CheckableRow, 'cells'>[],
): RowChecker {
  const referenceKey = mapping.reference.enabled ? mapping.reference.key : null;
  // The reference pair is the app's own: it must not count against the file's metadata columns.
  const compiled = compileMapping(headers, mapping.template, referenceKey ? { referenceKey } : {});
  let numberStyle: NumberStyle = mapping.numberStyle === 'auto' ? 'dot-decimal' : mapping.numberStyle;
  if (mapping.numberStyle === 'auto') {
    const amount = compiled.columns.find((c) => c.target === 'amount');
    if (amount) {
      const samples: string[] = [];
      for (const row of rows) {
        const cell = row.cells[amount.index];
        if (cell) samples.push(cell);
        if (samples.length >= 2000) break;
      }
      numberStyle = detectNumberStyle(samples);
    }
  }
  return {
    compiled,
    numberStyle,
    referenceKey,
    workspaceRef: workspaceRef(workspaceId),
    headers,
  };
}

/** One row through the mapping and the rules. The reference pair names the row by its stable key. */
export function checkRow(checker: RowChecker, row: CheckableRow): MappedRow {
  return applyMapping(checker.headers, row.cells, checker.compiled, {
    numberStyle: checker.numberStyle,
    ...(checker.referenceKey
      ? { reference: makeReference(checker.workspaceRef, row.key, checker.referenceKey) }
      : {}),
  });
}

export interface CurrencyTotal {
  currencyCode: string;
  count: number;
  /** Sum in minor units. */
  amount: number;
}

export interface WorkspaceCheck {
  results: MappedRow[];
  /** Warnings across rows (duplicates, outliers), by row position. */
  fileIssues: Map<number, MappedIssue[]>;
  counts: { rows: number; valid: number; invalid: number; warnings: number };
  /** Totals of the valid rows per currency. */
  totals: CurrencyTotal[];
}

export function summarise(
  results: readonly MappedRow[],
  fileIssues: ReadonlyMap<number, readonly MappedIssue[]>,
): Pick<WorkspaceCheck, 'counts' | 'totals'> {
  let valid = 0;
  let warnings = 0;
  const totals = new Map<string, CurrencyTotal>();
  results.forEach((r, i) => {
    if (r.ok) {
      valid++;
      const { currencyCode, amount } = r.donation.funds;
      const t = totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
      t.count++;
      t.amount += amount;
      totals.set(currencyCode, t);
    }
    if (r.issues.some((x) => x.severity === 'warning') || fileIssues.has(i)) warnings++;
  });
  return {
    counts: { rows: results.length, valid, invalid: results.length - valid, warnings },
    totals: [...totals.values()].sort((a, b) => b.count - a.count),
  };
}

/** A file-level finding on the column its field came from. */
export function placeFileIssue(checker: RowChecker, issue: FileIssue): MappedIssue {
  const column = checker.compiled.columnOfField.get(issue.field);
  return { ...issue, ...(column ? { column: column.header, columnIndex: column.index } : {}) };
}

/**
 * Warnings across the rows of the file. The reference pair is left out of the comparison, since it
 * differs on every row by design.
 */
export function checkAcrossRows(
  checker: RowChecker,
  rows: readonly CheckableRow[],
  results: readonly MappedRow[],
): Map<number, MappedIssue[]> {
  const issues = checkFile(
    results.map((r) => r.donation as DonationAttributes),
    {
      ignoreMetadataKeys: checker.referenceKey ? [checker.referenceKey] : [],
      rowLabel: (i) => String(rows[i]?.rowNumber ?? `new ${i + 1}`),
    },
  );
  const byRow = new Map<number, MappedIssue[]>();
  for (const issue of issues) {
    const placed = placeFileIssue(checker, issue);
    const list = byRow.get(issue.row) ?? [];
    list.push(placed);
    byRow.set(issue.row, list);
  }
  return byRow;
}

/** Checks every row and the file as a whole. */
export function checkWorkspace(
  workspaceId: string,
  headers: readonly string[],
  mapping: WorkspaceMapping,
  rows: readonly CheckableRow[],
): WorkspaceCheck & { checker: RowChecker } {
  const checker = makeRowChecker(workspaceId, headers, mapping, rows);
  const results = rows.map((row) => checkRow(checker, row));
  const fileIssues = checkAcrossRows(checker, rows, results);
  return { checker, results, fileIssues, ...summarise(results, fileIssues) };
}
