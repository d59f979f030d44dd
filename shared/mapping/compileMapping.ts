import { METADATA_MAX_PAIRS } from '../donation';
import { headerKey } from './headers';
import { currencyHintOf } from './suggestMapping';
import { metadataKeyOf, targetField, targetLabel, type MappingTarget } from './targets';
import type { MappingTemplate } from './template';

export interface MappingProblem {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** The template's column header the problem is about, when there is one. */
  header?: string;
}

export interface CompiledColumn {
  index: number;
  header: string;
  target: MappingTarget;
  /** Donation attribute path the column fills. */
  field: string;
}

/** A template resolved against one file's headers: done once per file, applied to every row. */
export interface CompiledMapping {
  readonly kind: 'compiled';
  headers: readonly string[];
  columns: readonly CompiledColumn[];
  fixed: { currencyCode?: string; foundationId?: string };
  amountUnit: 'major' | 'minor';
  /** Currency named in the amount header ("Amount (USD)"), used when no column or fixed value gives one. */
  headerCurrency?: string;
  /** Donation attribute path → the column a cell-level issue should be shown on. */
  columnOfField: ReadonlyMap<string, CompiledColumn>;
  problems: MappingProblem[];
}

/**
 * Resolves a template against a file's headers (matched by headerKey, first occurrence of a
 * repeated header) and checks the mapping as a whole: required targets present (recipientId,
 * amount, and a currency from a column, a fixed value or the amount header), no target twice, one
 * name source, metadata within the pair limit.
 */
export interface CompileOptions {
  /** The reference metadata key the upload will add (see ApplyOptions.reference), so its pair is
   * counted against the limit and a column cannot take its key. */
  referenceKey?: string;
}

export function compileMapping(
  headers: readonly string[],
  template: MappingTemplate,
  options: CompileOptions = {},
): CompiledMapping {
  const problems: MappingProblem[] = [];
  const indexOfKey = new Map<string, number>();
  headers.forEach((h, i) => {
    const key = headerKey(h);
    if (h.trim() === '') return;
    if (indexOfKey.has(key)) {
      problems.push({
        severity: 'warning',
        code: 'MAPPING_DUPLICATE_HEADER',
        header: h,
        message: `The file has more than one column headed "${h}"; the first one is used. Rename the others to map them.`,
      });
    } else indexOfKey.set(key, i);
  });

  const columns: CompiledColumn[] = [];
  const used = new Map<MappingTarget, string>();
  for (const [header, target] of Object.entries(template.columns)) {
    const index = indexOfKey.get(headerKey(header));
    if (index === undefined) {
      const required = target === 'recipientId' || target === 'amount';
      problems.push({
        severity: required ? 'error' : 'warning',
        code: 'MAPPING_COLUMN_MISSING',
        header,
        message: `The mapping uses a column "${header}" (${targetLabel(target)}) that this file does not have. ${
          required ? 'Map another column to it.' : 'Its values will be left out.'
        }`,
      });
      continue;
    }
    const earlier = used.get(target);
    if (earlier !== undefined) {
      problems.push({
        severity: 'error',
        code: 'MAPPING_TARGET_TWICE',
        header,
        message: `Columns "${earlier}" and "${header}" both map to ${targetLabel(target)}. Map only one of them.`,
      });
      continue;
    }
    used.set(target, header);
    columns.push({ index, header: headers[index] as string, target, field: targetField(target) });
  }

  const has = (t: MappingTarget): boolean => used.has(t);
  if (!has('recipientId')) {
    problems.push({
      severity: 'error',
      code: 'MAPPING_RECIPIENT_MISSING',
      message:
        'No column is mapped to Recipient ID. Choose the column that holds the cause, project or portfolio id.',
    });
  }
  if (!has('amount')) {
    problems.push({
      severity: 'error',
      code: 'MAPPING_AMOUNT_MISSING',
      message: 'No column is mapped to Amount. Choose the column that holds the donation amounts.',
    });
  }
  const amountColumn = columns.find((c) => c.target === 'amount');
  const headerHint = amountColumn ? currencyHintOf(amountColumn.header) : undefined;
  const headerCurrency = headerHint?.certain ? headerHint.currencyCode : undefined;
  if (!has('currencyCode') && !template.fixed?.currencyCode && !headerCurrency) {
    problems.push({
      severity: 'error',
      code: 'MAPPING_CURRENCY_MISSING',
      message: 'No currency: map a currency column or set one currency for the whole file.',
    });
  }
  if (has('donor.fullName') && (has('donor.firstName') || has('donor.lastName'))) {
    problems.push({
      severity: 'warning',
      code: 'MAPPING_NAME_TWICE',
      message: 'Both a full-name column and first/last-name columns are mapped; the full name is used.',
    });
  }
  const metadataCount = columns.filter((c) => metadataKeyOf(c.target) !== undefined).length;
  const reference = options.referenceKey;
  const pairs = metadataCount + (reference !== undefined ? 1 : 0);
  if (pairs > METADATA_MAX_PAIRS) {
    problems.push({
      severity: 'error',
      code: 'MAPPING_TOO_MANY_METADATA',
      message: `${metadataCount} columns are mapped to metadata${
        reference !== undefined ? ' (plus the row reference)' : ''
      }; a donation may carry at most ${METADATA_MAX_PAIRS} pairs. Unmap some.`,
    });
  }
  const clash =
    reference !== undefined ? columns.find((c) => c.target === `metadata.${reference}`) : undefined;
  if (clash) {
    problems.push({
      severity: 'error',
      code: 'MAPPING_REFERENCE_KEY_TAKEN',
      header: clash.header,
      message: `Column "${clash.header}" is mapped to the metadata key "${reference}", which Donation Desk uses for its row reference. Rename that key or change the reference key in settings.`,
    });
  }

  const columnOfField = new Map<string, CompiledColumn>();
  for (const c of columns) {
    // Name issues belong on the full-name column if there is one, else on the first-name column.
    if (c.field === 'donor.fullName' && columnOfField.has('donor.fullName') && c.target !== 'donor.fullName')
      continue;
    columnOfField.set(c.field, c);
  }

  return {
    kind: 'compiled',
    headers,
    columns,
    fixed: { ...template.fixed },
    amountUnit: template.amountUnit,
    ...(headerCurrency ? { headerCurrency } : {}),
    columnOfField,
    problems,
  };
}
