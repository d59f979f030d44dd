import { formatMinor } from '../amounts';
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
  /** How amounts are written in messages ("$1,250.00"); default the runtime's, as on the rest of the screen. */
  locale?: string;
  /** Filled with the usual (median) amount of each currency that has one, for saying why it moved. */
  usuals?: Map<string, number>;
}

/** Who gives, as the duplicate checks compare donors: the email, else the name, case and spacing aside. */
export function donorKey(d: CheckableDonation): string | undefined {
  const email = d.donor?.email;
  if (typeof email === 'string' && email !== '') return `e:${email.trim().toLowerCase()}`;
  const name = d.donor?.fullName;
  if (typeof name === 'string' && name !== '') return `n:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`;
  return undefined;
}

/** Rows with the same donor, recipient, currency and amount (see sameValue). */
interface Group {
  donor: string | undefined;
  recipient: unknown;
  currency: unknown;
  amount: unknown;
  /** Another group whose values hash to the same number. */
  next: Group | undefined;
  first: number;
  /** The first row of each distinct canonical text, once the group has a second member. */
  byText?: Map<string, number>;
  /** The first row that is not an identical copy, for "same donor, recipient and amount". */
  firstGift?: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashText(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** FNV-1a over a value's kind and content; equal values by sameValue always hash alike. */
function hashValue(hash: number, value: unknown): number {
  if (typeof value === 'string')
    return Math.imul(hashText(Math.imul(hash ^ 1, FNV_PRIME), value) ^ 31, FNV_PRIME);
  if (typeof value === 'number') {
    const h = Math.imul(Math.imul(hash ^ 2, FNV_PRIME) ^ (value | 0), FNV_PRIME);
    return Math.imul(h ^ ((value / 4294967296) | 0), FNV_PRIME);
  }
  if (value === undefined) return Math.imul(hash ^ 3, FNV_PRIME);
  if (value === null) return Math.imul(hash ^ 4, FNV_PRIME);
  if (typeof value === 'boolean') return Math.imul(hash ^ (value ? 5 : 6), FNV_PRIME);
  return Math.imul(hashText(Math.imul(hash ^ 7, FNV_PRIME), String(value)) ^ 31, FNV_PRIME);
}

/** Same kind and value (NaN equals NaN, 0 equals -0); anything that is not a string, number,
 * boolean, null or undefined is compared by its text. Identical rows always have the same values. */
function sameValue(a: unknown, b: unknown): boolean {
  const aText =
    a !== null &&
    (typeof a === 'object' || typeof a === 'function' || typeof a === 'symbol' || typeof a === 'bigint');
  const bText =
    b !== null &&
    (typeof b === 'object' || typeof b === 'function' || typeof b === 'symbol' || typeof b === 'bigint');
  if (aText || bText) return aText && bText && String(a) === String(b);
  return a === b || (a !== a && b !== b);
}

/** Row `row` is an identical copy of row `same`. */
export function duplicateRowIssue(row: number, same: number, label: (row: number) => string): FileIssue {
  return {
    severity: 'warning',
    row,
    relatedRow: same,
    field: '',
    code: 'DUPLICATE_ROW',
    message: `Row ${label(row)} is identical to row ${label(same)}. Keep both only if both gifts are meant; otherwise delete one.`,
  };
}

/** Row `row` has the donor, recipient and amount of row `earlier`. */
export function duplicateGiftIssue(row: number, earlier: number, label: (row: number) => string): FileIssue {
  return {
    severity: 'warning',
    row,
    relatedRow: earlier,
    field: 'funds.amount',
    code: 'DUPLICATE_DONOR_GIFT',
    message: `Row ${label(row)} has the same donor, recipient and amount as row ${label(earlier)}. Check that this gift is not entered twice.`,
  };
}

/** Row `row`'s amount is at least `factor` times the file's `usual` (median) amount in its currency. */
export function unusualAmountIssue(
  row: number,
  amount: number,
  currency: string,
  usual: number,
  factor: number,
  label: (row: number) => string,
  locale?: string,
): FileIssue {
  return {
    severity: 'warning',
    row,
    field: 'funds.amount',
    code: 'AMOUNT_UNUSUALLY_HIGH',
    message: `Amount ${formatMinor(amount, currency, locale)} in row ${label(row)} is at least ${factor} times this file's usual ${currency} amount (${formatMinor(Math.round(usual), currency, locale)}). Check for a missing decimal point.`,
  };
}

/** The middle of sorted numbers (the mean of the two middle ones for an even count). */
export function median(sorted: ArrayLike<number>): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * What the file checks look at in each row: who gives (see donorKey), to whom, in what and how much.
 * Kept in parallel lists, one entry a row (undefined for a row that could not be built), so whoever
 * keeps a whole file's worth need not keep every donation object.
 */
export interface FileDigests {
  /** Whether the row is there at all (a row that could not be built is not). */
  present: boolean[];
  donors: (string | undefined)[];
  recipients: unknown[];
  currencies: unknown[];
  amounts: unknown[];
}

export function emptyDigests(): FileDigests {
  return { present: [], donors: [], recipients: [], currencies: [], amounts: [] };
}

/** Sets row `index` of the digests from a donation (or marks it absent). */
export function setDigest(digests: FileDigests, index: number, row: CheckableDonation | undefined): void {
  digests.present[index] = row !== undefined;
  digests.donors[index] = row === undefined ? undefined : donorKey(row);
  digests.recipients[index] = row?.destination?.recipientId;
  digests.currencies[index] = row?.funds?.currencyCode;
  digests.amounts[index] = row?.funds?.amount;
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
  const digests = emptyDigests();
  rows.forEach((row, index) => setDigest(digests, index, row));
  const ignoreMetadataKeys = options.ignoreMetadataKeys ?? [];
  return checkFileDigests(
    rows.length,
    digests,
    (index) => canonicalDonationText(rows[index], { ignoreMetadataKeys }),
    options,
  );
}

/**
 * checkFile over digests. `textOf(index)` gives a row's canonical text (see canonicalDonationText);
 * it is asked only for rows whose donor, recipient, currency and amount match another row's.
 */
export function checkFileDigests(
  count: number,
  digests: FileDigests,
  textOf: (index: number) => string,
  options: FileCheckOptions = {},
): FileIssue[] {
  const label = options.rowLabel ?? ((row: number) => String(row + 1));
  const factor = options.outlierFactor ?? 10;
  const minRows = options.outlierMinRows ?? 5;
  const issues: FileIssue[] = [];
  const { present, donors, recipients, currencies, amounts } = digests;
  // Rows are grouped by donor, recipient, currency and amount first: identical rows always share
  // that group, so the canonical text of a whole row (the costly part) is only worked out for rows
  // whose group has more than one member. Groups are found by a number hashed from those four
  // values, not by a text key built per row: at 100,000 rows that is the difference between about
  // a second and a tenth of one.
  const groups = new Map<number, Group>();
  const amountsByCurrency = new Map<string, number[]>();

  for (let index = 0; index < count; index++) {
    if (!present[index]) continue;
    const amount = amounts[index];
    const currency = currencies[index];
    const recipient = recipients[index];
    const donor = donors[index];
    // Kept to 30 bits: a small integer key, which a Map looks up without allocating.
    const hash =
      hashValue(hashValue(hashValue(hashValue(FNV_OFFSET, donor), recipient), currency), amount) & 0x3fffffff;
    let group = groups.get(hash);
    while (
      group !== undefined &&
      !(
        group.donor === donor &&
        sameValue(group.recipient, recipient) &&
        sameValue(group.currency, currency) &&
        sameValue(group.amount, amount)
      )
    ) {
      group = group.next;
    }
    let same: number | undefined;
    if (group === undefined) {
      group = { first: index, donor, recipient, currency, amount, next: groups.get(hash) };
      groups.set(hash, group);
    } else {
      // The first member's text is worked out only now that the group has a second member.
      group.byText ??= new Map([[textOf(group.first), group.first]]);
      const mine = textOf(index);
      same = group.byText.get(mine);
      if (same === undefined) group.byText.set(mine, index);
    }
    if (same !== undefined) {
      issues.push(duplicateRowIssue(index, same, label));
    } else if (donor !== undefined && typeof recipient === 'string' && typeof amount === 'number') {
      // Every row of a group that gets here has the same donor, recipient, currency and amount.
      const earlier = group.firstGift;
      if (earlier !== undefined) {
        issues.push(duplicateGiftIssue(index, earlier, label));
      } else group.firstGift = index;
    }
    if (typeof amount === 'number' && amount > 0 && typeof currency === 'string') {
      let list = amountsByCurrency.get(currency);
      if (!list) amountsByCurrency.set(currency, (list = []));
      list.push(amount);
    }
  }

  const medians = new Map<string, number>();
  for (const [currency, list] of amountsByCurrency) {
    // A typed array sorts numbers as numbers, several times faster than a comparator.
    if (list.length >= minRows) medians.set(currency, median(Float64Array.from(list).sort()));
  }
  for (const [currency, usual] of medians) options.usuals?.set(currency, usual);
  for (let index = 0; index < count; index++) {
    if (!present[index]) continue;
    const amount = amounts[index];
    const currency = currencies[index];
    if (typeof amount !== 'number' || typeof currency !== 'string') continue;
    const usual = medians.get(currency);
    if (usual === undefined || amount < usual * factor) continue;
    issues.push(unusualAmountIssue(index, amount, currency, usual, factor, label, options.locale));
  }
  return issues.sort((a, b) => a.row - b.row);
}
