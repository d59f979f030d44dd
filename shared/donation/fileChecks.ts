import { minorToMajorString } from '../amounts';
import { canonicalDonationText } from './fingerprint';
import type { DonationIssue } from './types';

/** A file-level finding about one row; `row` is the index in the list given to checkFile. */
export interface FileIssue extends DonationIssue {
  severity: 'warning';
  row: number;
  /** The earlier row this one repeats, for "same as row N". */
  relatedRow?: number;
}

/** The minimum a row needs for the file checks; rows that could not be built are passed as undefined. */
export interface CheckableDonation {
  destination?: { recipientId?: unknown };
  funds?: { amount?: unknown; currencyCode?: unknown };
  donor?: { fullName?: unknown; email?: unknown };
  metadata?: Record<string, unknown>;
}

export interface FileCheckOptions {
  /** Metadata keys that differ per row by design (the reference key) and do not make rows different. */
  ignoreMetadataKeys?: readonly string[];
  /** How rows are named in messages; default index + 1. The app passes the spreadsheet row number. */
  rowLabel?: (row: number) => string;
  /** An amount this many times the median of its currency is flagged. Default 10. */
  outlierFactor?: number;
  /** A currency needs at least this many rows before "usual" means anything. Default 5. */
  outlierMinRows?: number;
}

function donorKey(d: CheckableDonation): string | undefined {
  const email = d.donor?.email;
  if (typeof email === 'string' && email !== '') return `e:${email.trim().toLowerCase()}`;
  const name = d.donor?.fullName;
  if (typeof name === 'string' && name !== '') return `n:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`;
  return undefined;
}

/** Rows with the same donor, recipient, currency and amount. */
interface Group {
  first: number;
  firstRow: CheckableDonation;
  /** The first row of each distinct canonical text, once the group has a second member. */
  byText?: Map<string, number>;
  /** The first row that is not an identical copy, for "same donor, recipient and amount". */
  firstGift?: number;
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Warnings across rows that never block: identical rows, the same donor + recipient + amount twice,
 * and amounts at least 10× the file's median for their currency (a missing decimal point, a cents
 * column read as dollars). Whitespace trimming is reported per cell by applyMapping.
 */
export function checkFile(
  rows: ReadonlyArray<CheckableDonation | undefined>,
  options: FileCheckOptions = {},
): FileIssue[] {
  const label = options.rowLabel ?? ((row: number) => String(row + 1));
  const factor = options.outlierFactor ?? 10;
  const minRows = options.outlierMinRows ?? 5;
  const issues: FileIssue[] = [];
  const ignoreMetadataKeys = options.ignoreMetadataKeys ?? [];
  const text = (row: CheckableDonation) => canonicalDonationText(row, { ignoreMetadataKeys });
  // Rows are grouped by donor, recipient, currency and amount first: identical rows always share
  // that group, so the canonical text of a whole row (the costly part) is only worked out for rows
  // whose group has more than one member. At 100,000 rows that is the difference between about a
  // second and a tenth of one.
  const groups = new Map<string, Group>();
  const amountsByCurrency = new Map<string, number[]>();

  rows.forEach((row, index) => {
    if (row === undefined) return;
    const amount = row.funds?.amount;
    const currency = row.funds?.currencyCode;
    const recipient = row.destination?.recipientId;
    const donor = donorKey(row);
    const key = `${donor ?? ''}\u0000${String(recipient)}\u0000${String(currency)}\u0000${String(amount)}`;
    const group = groups.get(key);
    let same: number | undefined;
    if (group === undefined) {
      groups.set(key, { first: index, firstRow: row });
    } else {
      // The first member's text is worked out only now that the group has a second member.
      group.byText ??= new Map([[text(group.firstRow), group.first]]);
      const mine = text(row);
      same = group.byText.get(mine);
      if (same === undefined) group.byText.set(mine, index);
    }
    if (same !== undefined) {
      issues.push({
        severity: 'warning',
        row: index,
        relatedRow: same,
        field: '',
        code: 'DUPLICATE_ROW',
        message: `Row ${label(index)} is identical to row ${label(same)}. Keep both only if both gifts are meant; otherwise delete one.`,
      });
    } else if (donor !== undefined && typeof recipient === 'string' && typeof amount === 'number') {
      // Every row of a group that gets here has the same donor, recipient, currency and amount.
      const own = group ?? (groups.get(key) as Group);
      const earlier = own.firstGift;
      if (earlier !== undefined) {
        issues.push({
          severity: 'warning',
          row: index,
          relatedRow: earlier,
          field: 'funds.amount',
          code: 'DUPLICATE_DONOR_GIFT',
          message: `Row ${label(index)} has the same donor, recipient and amount as row ${label(earlier)}. Check that this gift is not entered twice.`,
        });
      } else own.firstGift = index;
    }
    if (typeof amount === 'number' && amount > 0 && typeof currency === 'string') {
      let list = amountsByCurrency.get(currency);
      if (!list) amountsByCurrency.set(currency, (list = []));
      list.push(amount);
    }
  });

  const medians = new Map<string, number>();
  for (const [currency, amounts] of amountsByCurrency) {
    if (amounts.length >= minRows) medians.set(currency, median([...amounts].sort((a, b) => a - b)));
  }
  rows.forEach((row, index) => {
    const amount = row?.funds?.amount;
    const currency = row?.funds?.currencyCode;
    if (typeof amount !== 'number' || typeof currency !== 'string') return;
    const usual = medians.get(currency);
    if (usual === undefined || amount < usual * factor) return;
    issues.push({
      severity: 'warning',
      row: index,
      field: 'funds.amount',
      code: 'AMOUNT_UNUSUALLY_HIGH',
      message: `Amount ${minorToMajorString(amount, currency)} ${currency} in row ${label(index)} is at least ${factor} times this file's usual ${currency} amount (${minorToMajorString(Math.round(usual), currency)}). Check for a missing decimal point.`,
    });
  });
  return issues.sort((a, b) => a.row - b.row);
}
