import { currenciesForSymbol, isCurrencyCode, parseAmount, type NumberStyle } from '../amounts';
import {
  FUNDS_SOURCE,
  PAYMENT_TYPE,
  fieldLabel,
  parseYesNo,
  toCountryCode,
  validateDonation,
  type DonationAttributes,
  type DonationIssue,
} from '../donation';
import { cellText } from './cellText';
import { compileMapping, type CompiledColumn, type CompiledMapping } from './compileMapping';
import type { ReferencePair } from './reference';
import { metadataKeyOf } from './targets';
import type { MappingTemplate } from './template';

/** An issue placed on the cell it came from, so the grid can mark it. */
export interface MappedIssue extends DonationIssue {
  /** Header text of the source column; absent when the value came from a fixed value or the app. */
  column?: string;
  /** 0-based index of the source column in the row. */
  columnIndex?: number;
}

/** A donation as far as a row allows: fields that could not be read are missing. */
export interface DonationDraft {
  destination: { recipientId?: string; foundationId?: string };
  funds: {
    paymentType: typeof PAYMENT_TYPE;
    source: typeof FUNDS_SOURCE;
    currencyCode?: string;
    amount?: number;
  };
  donor?: {
    receipted?: boolean;
    fullName?: string;
    email?: string;
    address?: {
      line1?: string;
      line2?: string;
      city?: string;
      state?: string;
      zip?: string;
      country?: string;
    };
  };
  metadata?: Record<string, string>;
}

export type MappedRow =
  | { ok: true; donation: DonationAttributes; issues: MappedIssue[] }
  | { ok: false; donation: DonationDraft; issues: MappedIssue[] };

export interface ApplyOptions {
  /** The file's number style (see detectNumberStyle). Default dot-decimal. */
  numberStyle?: NumberStyle;
  /** The workspace/row reference pair to add to metadata; leave out to switch it off. */
  reference?: ReferencePair;
  /** Report cells whose surrounding spaces were removed. Default true. */
  reportTrimmed?: boolean;
  /** Formula results with binary noise: take the value the sheet shows (default) or refuse. */
  floatNoise?: 'as-shown' | 'refuse';
}

const compiledCache = new WeakMap<
  MappingTemplate,
  { headers: readonly string[]; referenceKey: string | undefined; compiled: CompiledMapping }
>();

function sameHeaders(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compiledFor(
  headers: readonly string[],
  mapping: MappingTemplate | CompiledMapping,
  referenceKey: string | undefined,
): CompiledMapping {
  if ('kind' in mapping && mapping.kind === 'compiled') return mapping;
  const template = mapping as MappingTemplate;
  const cached = compiledCache.get(template);
  if (cached && cached.referenceKey === referenceKey && sameHeaders(cached.headers, headers))
    return cached.compiled;
  const compiled = compileMapping(headers, template, referenceKey !== undefined ? { referenceKey } : {});
  compiledCache.set(template, { headers, referenceKey, compiled });
  return compiled;
}

const at = (column: CompiledColumn | undefined): Pick<MappedIssue, 'column' | 'columnIndex'> =>
  column ? { column: column.header, columnIndex: column.index } : {};

type AddressKey = 'line1' | 'line2' | 'city' | 'state' | 'zip' | 'country';

/**
 * Turns one row's cells into a donation through a mapping, and checks it with the shared rules.
 * paymentType DONATION_REPORT and source COMPANY are set here; first + last name are joined into
 * fullName; text is trimmed (reported as a warning); amounts are converted exactly to minor units
 * in the row's currency (its column, else the fixed currency, else the one the amount header names,
 * else one written in the amount cell). Every issue names its source column so the UI can mark it.
 * Pass a CompiledMapping (compileMapping once per file) when mapping many rows.
 */
export function applyMapping(
  headers: readonly string[],
  cells: readonly unknown[],
  mapping: MappingTemplate | CompiledMapping,
  options: ApplyOptions = {},
): MappedRow {
  const compiled = compiledFor(headers, mapping, options.reference?.key);
  const reportTrimmed = options.reportTrimmed ?? true;
  const issues: MappedIssue[] = [];
  // Fields whose problem is already reported by the mapping step, so the rules do not repeat it.
  // Made only when there is one: this runs for every row of a file.
  let reported: Set<string> | undefined;

  const draft: DonationDraft = {
    destination: {},
    funds: { paymentType: PAYMENT_TYPE, source: FUNDS_SOURCE },
  };
  const donor: NonNullable<DonationDraft['donor']> = {};
  const address: NonNullable<NonNullable<DonationDraft['donor']>['address']> = {};
  const metadata: Record<string, string> = {};
  // Whether donor, address and metadata got anything, without counting their keys afterwards.
  let hasDonor = false;
  let hasAddress = false;
  let hasMetadata = false;
  let firstName = '';
  let lastName = '';
  let amountColumn: CompiledColumn | undefined;
  let currencyColumn: CompiledColumn | undefined;

  const text = (column: CompiledColumn): string => {
    const raw = cellText(cells[column.index]);
    const trimmed = raw.trim();
    if (reportTrimmed && trimmed !== '' && trimmed !== raw) {
      issues.push({
        severity: 'warning',
        field: column.field,
        code: 'WHITESPACE_TRIMMED',
        message: `Spaces around "${trimmed}" in ${column.header} were removed.`,
        ...at(column),
      });
    }
    return trimmed;
  };

  for (const column of compiled.columns) {
    const target = column.target;
    if (target === 'amount') {
      amountColumn = column;
      continue;
    }
    const value = text(column);
    if (value === '') continue;
    const metadataKey = metadataKeyOf(target);
    if (metadataKey !== undefined) {
      metadata[metadataKey] = value;
      hasMetadata = true;
      continue;
    }
    switch (target) {
      case 'recipientId':
        draft.destination.recipientId = value;
        break;
      case 'foundationId':
        draft.destination.foundationId = value;
        break;
      case 'currencyCode': {
        currencyColumn = column;
        const symbolCodes = currenciesForSymbol(value);
        draft.funds.currencyCode =
          symbolCodes?.length === 1 ? (symbolCodes[0] as string) : value.toUpperCase();
        break;
      }
      case 'donor.fullName':
        donor.fullName = value;
        hasDonor = true;
        break;
      case 'donor.firstName':
        firstName = value;
        break;
      case 'donor.lastName':
        lastName = value;
        break;
      case 'donor.email':
        donor.email = value;
        hasDonor = true;
        break;
      case 'donor.receipted': {
        const yes = parseYesNo(value);
        if (yes === undefined) {
          (reported ??= new Set()).add('donor.receipted');
          issues.push({
            severity: 'error',
            field: 'donor.receipted',
            code: 'RECEIPTED_INVALID',
            message: `${fieldLabel('donor.receipted')} "${value}" is not yes or no. Enter yes, no, true, false, 1 or 0.`,
            ...at(column),
          });
        } else {
          donor.receipted = yes;
          hasDonor = true;
        }
        break;
      }
      case 'donor.address.country':
        address.country = toCountryCode(value) ?? value;
        hasAddress = true;
        break;
      default:
        address[target.slice('donor.address.'.length) as AddressKey] = value;
        hasAddress = true;
    }
  }

  if (draft.destination.foundationId === undefined && compiled.fixed.foundationId) {
    draft.destination.foundationId = compiled.fixed.foundationId;
  }
  if (draft.funds.currencyCode === undefined) {
    const fallback = compiled.fixed.currencyCode ?? compiled.headerCurrency;
    if (fallback) draft.funds.currencyCode = fallback;
  }

  if (amountColumn) {
    const raw = cells[amountColumn.index];
    const trimmedText = typeof raw === 'string' ? raw.trim() : undefined;
    if (reportTrimmed && trimmedText !== undefined && trimmedText !== '' && trimmedText !== raw) {
      issues.push({
        severity: 'warning',
        field: 'funds.amount',
        code: 'WHITESPACE_TRIMMED',
        message: `Spaces around "${trimmedText}" in ${amountColumn.header} were removed.`,
        ...at(amountColumn),
      });
    }
    const currency = draft.funds.currencyCode;
    const currencyUsable = currency === undefined || isCurrencyCode(currency);
    const parsed = parseAmount(raw, currencyUsable ? currency : undefined, {
      style: options.numberStyle ?? 'dot-decimal',
      unit: compiled.amountUnit,
      floatNoise: options.floatNoise ?? 'as-shown',
    });
    if (parsed.ok) {
      draft.funds.amount = parsed.minor;
      if (currency === undefined) draft.funds.currencyCode = parsed.currencyCode;
      for (const note of parsed.notes) {
        issues.push({
          severity: 'warning',
          field: 'funds.amount',
          code: note.code,
          message: note.message,
          ...at(amountColumn),
        });
      }
    } else if (!currencyUsable && parsed.code === 'AMOUNT_CURRENCY_UNKNOWN') {
      // The currency cell is wrong and says so; the amount cannot be judged until it is fixed.
      (reported ??= new Set()).add('funds.amount');
    } else {
      (reported ??= new Set()).add('funds.amount');
      if (parsed.code === 'AMOUNT_CURRENCY_MISMATCH') (reported ??= new Set()).add('funds.currencyCode');
      issues.push({
        severity: 'error',
        field: 'funds.amount',
        code: parsed.code,
        message: parsed.message,
        ...at(amountColumn),
      });
      // Without any currency the amount message already says what to do; do not repeat it.
      if (parsed.code === 'AMOUNT_CURRENCY_UNKNOWN') (reported ??= new Set()).add('funds.currencyCode');
    }
  }

  if (donor.fullName === undefined && (firstName !== '' || lastName !== '')) {
    donor.fullName = firstName !== '' && lastName !== '' ? `${firstName} ${lastName}` : firstName || lastName;
    hasDonor = true;
  }
  if (hasAddress) {
    donor.address = address;
    hasDonor = true;
  }
  if (hasDonor) draft.donor = donor;

  if (options.reference) {
    const { key, value } = options.reference;
    if (metadata[key] !== undefined) {
      (reported ??= new Set()).add(`metadata.${key}`);
      issues.push({
        severity: 'error',
        field: `metadata.${key}`,
        code: 'REFERENCE_KEY_TAKEN',
        message: `A column is mapped to the metadata key "${key}", which Donation Desk uses for its row reference. Rename that key or change the reference key in settings.`,
        ...at(compiled.columnOfField.get(`metadata.${key}`)),
      });
    } else {
      metadata[key] = value;
      hasMetadata = true;
    }
  }
  if (hasMetadata) draft.metadata = metadata;

  for (const issue of validateDonation(draft)) {
    if (reported?.has(issue.field)) continue;
    const column =
      issue.field === 'funds.amount'
        ? amountColumn
        : issue.field === 'funds.currencyCode'
          ? currencyColumn
          : compiled.columnOfField.get(issue.field);
    // The rules' issue objects are new and ours: placed on their cell where they are, since
    // copying them with spreads was most of this function's time at 100,000 rows.
    const placed: MappedIssue = issue;
    if (column) {
      placed.column = column.header;
      placed.columnIndex = column.index;
    }
    issues.push(placed);
  }

  const blocked = issues.some((i) => i.severity === 'error');
  return blocked
    ? { ok: false, donation: draft, issues }
    : { ok: true, donation: draft as DonationAttributes, issues };
}
