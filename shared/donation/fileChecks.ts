import { minorToMajorString } from '../amounts';
import { fingerprintDonation } from './fingerprint';
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
  const firstByFingerprint = new Map<string, number>();
  const firstByDonorGift = new Map<string, number>();
  const amountsByCurrency = new Map<string, number[]>();

  rows.forEach((row, index) => {
    if (row === undefined) return;
    const fingerprint = fingerprintDonation(row, { ignoreMetadataKeys: options.ignoreMetadataKeys ?? [] });
    const same = firstByFingerprint.get(fingerprint);
    if (same !== undefined) {
      issues.push({
        severity: 'warning',
        row: index,
        relatedRow: same,
        field: '',
        code: 'DUPLICATE_ROW',
        message: `Row ${label(index)} is identical to row ${label(same)}. Keep both only if both gifts are meant; otherwise delete one.`,
      });
    } else firstByFingerprint.set(fingerprint, index);

    const amount = row.funds?.amount;
    const currency = row.funds?.currencyCode;
    const recipient = row.destination?.recipientId;
    const donor = donorKey(row);
    if (
      same === undefined &&
      donor !== undefined &&
      typeof recipient === 'string' &&
      typeof amount === 'number'
    ) {
      const key = `${donor}\u0000${recipient}\u0000${String(currency)}\u0000${amount}`;
      const earlier = firstByDonorGift.get(key);
      if (earlier !== undefined) {
        issues.push({
          severity: 'warning',
          row: index,
          relatedRow: earlier,
          field: 'funds.amount',
          code: 'DUPLICATE_DONOR_GIFT',
          message: `Row ${label(index)} has the same donor, recipient and amount as row ${label(earlier)}. Check that this gift is not entered twice.`,
        });
      } else firstByDonorGift.set(key, index);
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
