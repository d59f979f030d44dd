import { detectNumberStyle, type NumberStyle } from '../amounts';
import { checkFile, totalsByCurrency, type CurrencyTotal, type DonationAttributes } from '../donation';
import { applyMapping, type ApplyOptions, type DonationDraft, type MappedIssue } from './applyMapping';
import { compileMapping, type MappingProblem } from './compileMapping';
import type { ReferencePair } from './reference';
import type { MappingTemplate } from './template';

/** An issue with the spreadsheet row it belongs to: the shape of the CLI's `--json` issues. */
export interface SheetIssue extends MappedIssue {
  /** The spreadsheet's own row number. */
  row: number;
}

export interface SheetRow {
  row: number;
  ok: boolean;
  donation: DonationAttributes | DonationDraft;
  issues: SheetIssue[];
}

export interface SheetValidation {
  numberStyle: NumberStyle;
  /** Problems of the mapping as a whole (missing required columns…); rows are still checked. */
  mappingProblems: MappingProblem[];
  rows: SheetRow[];
  /** `warnings` counts rows with at least one warning (and no error needed). */
  counts: { rows: number; valid: number; invalid: number; warnings: number };
  /** Every issue, row by row, cell issues before file-level warnings of the same row. */
  issues: SheetIssue[];
  /** Count and sum per currency over the valid rows, in minor units. */
  totals: CurrencyTotal[];
}

export interface SheetInput {
  headers: readonly string[];
  /** Data rows, cells in header order. */
  rows: ReadonlyArray<readonly unknown[]>;
  mapping: MappingTemplate;
  /** Spreadsheet row number of each data row (blank rows skipped by the parser leave gaps). */
  rowNumbers?: readonly number[];
  /** Row number of the first data row when rowNumbers is not given. Default 2. */
  firstRow?: number;
  /** The file's number style, or 'auto' (default) to detect it from the amount column. */
  numberStyle?: NumberStyle | 'auto';
  /** The reference pair for a row, when the upload adds one (key configurable, or off). */
  reference?: (rowNumber: number) => ReferencePair | undefined;
  floatNoise?: ApplyOptions['floatNoise'];
}

/**
 * Maps and checks a whole sheet: compile the mapping once, detect the number style, apply the
 * mapping row by row, then add the file-level warnings (duplicates, outliers) and the totals.
 * This is the CLI's `validate` and the renderer's initial pass in one call.
 */
export function validateSheet(input: SheetInput): SheetValidation {
  const { headers, rows, mapping } = input;
  const rowNumber = (i: number): number => input.rowNumbers?.[i] ?? (input.firstRow ?? 2) + i;
  const reference = input.reference;
  const sampleKey = reference?.(rowNumber(0))?.key;
  const compiled = compileMapping(
    headers,
    mapping,
    sampleKey !== undefined ? { referenceKey: sampleKey } : {},
  );

  let numberStyle: NumberStyle = 'dot-decimal';
  if (input.numberStyle && input.numberStyle !== 'auto') numberStyle = input.numberStyle;
  else {
    const amountIndex = compiled.columns.find((c) => c.target === 'amount')?.index;
    if (amountIndex !== undefined) numberStyle = detectNumberStyle(rows.map((r) => r[amountIndex]));
  }

  const sheetRows: SheetRow[] = rows.map((cells, i) => {
    const row = rowNumber(i);
    const ref = reference?.(row);
    const mapped = applyMapping(headers, cells, compiled, {
      numberStyle,
      ...(ref ? { reference: ref } : {}),
      ...(input.floatNoise ? { floatNoise: input.floatNoise } : {}),
    });
    return {
      row,
      ok: mapped.ok,
      donation: mapped.donation,
      issues: mapped.issues.map((issue) => ({ ...issue, row })),
    };
  });

  const fileIssues = checkFile(
    sheetRows.map((r) => r.donation),
    {
      rowLabel: (i) => String(rowNumber(i)),
      ...(sampleKey !== undefined ? { ignoreMetadataKeys: [sampleKey] } : {}),
    },
  );
  for (const issue of fileIssues) {
    const target = sheetRows[issue.row];
    if (!target) continue;
    const column =
      issue.field === 'funds.amount' ? compiled.columns.find((c) => c.target === 'amount') : undefined;
    target.issues.push({
      severity: issue.severity,
      field: issue.field,
      code: issue.code,
      message: issue.message,
      row: target.row,
      ...(column ? { column: column.header, columnIndex: column.index } : {}),
    });
  }

  let valid = 0;
  let warnings = 0;
  for (const r of sheetRows) {
    if (r.ok) valid++;
    if (r.issues.some((i) => i.severity === 'warning')) warnings++;
  }
  return {
    numberStyle,
    mappingProblems: compiled.problems,
    rows: sheetRows,
    counts: { rows: sheetRows.length, valid, invalid: sheetRows.length - valid, warnings },
    issues: sheetRows.flatMap((r) => r.issues),
    totals: totalsByCurrency(sheetRows.filter((r) => r.ok).map((r) => r.donation as DonationAttributes)),
  };
}
