import {
  donorKey,
  duplicateGiftIssue,
  duplicateRowIssue,
  median,
  unusualAmountIssue,
  type FileIssue,
} from '../../../shared/donation';
import type { MappedRow } from '../../../shared/mapping';
import type { CurrencyTotal } from '../../../shared/workspace';

/** Two independent 32-bit hashes of a text: a 64-bit fingerprint, kept as two numbers. */
function fingerprint(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final mixing (murmur3's), so that the low bits used to place a key depend on every character.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  a ^= a >>> 16;
  b ^= b >>> 16;
  b = Math.imul(b, 0x85ebca6b);
  b ^= b >>> 13;
  return [a >>> 0, b >>> 0];
}

/**
 * A set of 64-bit fingerprints, each with the first row that had it: open addressing in typed
 * arrays, 12 bytes a slot and at most 70% of the slots used, so 2.8 million rows take about 50 MB
 * (a Map of strings would take gigabytes).
 */
export class FingerprintTable {
  private mask: number;
  private a: Uint32Array;
  private b: Uint32Array;
  /** Row + 1; 0 for an empty slot. */
  private rows: Int32Array;
  private size = 0;

  constructor(expected: number) {
    let capacity = 1024;
    while (capacity * 0.7 < expected) capacity *= 2;
    this.mask = capacity - 1;
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.rows = new Int32Array(capacity);
  }

  /** Bytes the table takes. */
  get bytes(): number {
    return this.rows.length * 12;
  }

  /** The row first seen with this fingerprint, or -1 after recording `row` as the first. */
  firstOrAdd(key: [number, number], row: number): number {
    const [a, b] = key;
    for (let slot = a & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = this.rows[slot]!;
      if (held === 0) {
        this.a[slot] = a;
        this.b[slot] = b;
        this.rows[slot] = row + 1;
        if (++this.size > (this.mask + 1) * 0.7) this.grow();
        return -1;
      }
      if (this.a[slot] === a && this.b[slot] === b) return held - 1;
    }
  }

  private grow(): void {
    const { a, b, rows } = this;
    const capacity = rows.length * 2;
    this.mask = capacity - 1;
    this.a = new Uint32Array(capacity);
    this.b = new Uint32Array(capacity);
    this.rows = new Int32Array(capacity);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row === 0) continue;
      let slot = a[i]! & this.mask;
      while (this.rows[slot] !== 0) slot = (slot + 1) & this.mask;
      this.a[slot] = a[i]!;
      this.b[slot] = b[i]!;
      this.rows[slot] = row;
    }
  }
}

const VALID = 1;
const OWN_WARNING = 2;
const NO_DUPLICATE = 0;
const DUPLICATE_ROW = 1;
const DUPLICATE_GIFT = 2;

const kindOf = (value: unknown): string =>
  value === undefined ? 'u' : value === null ? 'n' : `${typeof value}:${String(value)}`;

/**
 * The file-wide checks (identical rows, the same donor, recipient and amount twice, amounts 10 times
 * the file's usual) over rows seen one at a time, in memory that does not hold the rows: per row
 * about 20 bytes (its row number, amount, currency, flags and the row it repeats), and two
 * fingerprint tables (12 bytes a slot). The findings are those of checkFile, in the same words; two
 * different rows would have to share a 64-bit fingerprint to be taken for copies (about one chance in
 * ten million at 2.8 million rows).
 */
export class FileStats {
  private readonly rowNumbers: Int32Array;
  private readonly flags: Uint8Array;
  private readonly duplicates: Uint8Array;
  private readonly related: Int32Array;
  private readonly amounts: Float64Array;
  /** 0: no amount to compare; else the currency's index + 1 in `currencies`. */
  private readonly currencyOf: Uint16Array;
  private readonly currencies: string[] = [];
  private readonly currencyIds = new Map<string, number>();
  private readonly texts: FingerprintTable;
  private readonly gifts: FingerprintTable;
  private readonly medians = new Map<number, number>();
  private readonly totalsByCurrency = new Map<string, CurrencyTotal>();
  private count = 0;
  private valid = 0;
  private rowIssues = 0;

  constructor(
    capacity: number,
    private readonly ignoreMetadataKeys: readonly string[],
    private readonly outlierFactor = 10,
    private readonly outlierMinRows = 5,
  ) {
    this.rowNumbers = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.duplicates = new Uint8Array(capacity);
    this.related = new Int32Array(capacity);
    this.amounts = new Float64Array(capacity);
    this.currencyOf = new Uint16Array(capacity);
    this.texts = new FingerprintTable(capacity);
    this.gifts = new FingerprintTable(capacity);
  }

  /** Bytes the statistics take (typed arrays and tables). */
  get bytes(): number {
    return this.rowNumbers.length * 20 + this.texts.bytes + this.gifts.bytes;
  }

  get rows(): number {
    return this.count;
  }

  /** Row `index` (in order, from 0) was checked with this result. */
  add(index: number, rowNumber: number, result: MappedRow): void {
    this.count = index + 1;
    this.rowNumbers[index] = rowNumber;
    const d = result.donation;
    if (result.ok) {
      this.valid++;
      this.flags[index] = VALID;
      const { currencyCode, amount } = result.donation.funds;
      const total = this.totalsByCurrency.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
      total.count++;
      total.amount += amount;
      this.totalsByCurrency.set(currencyCode, total);
    }
    if (result.issues.some((x) => x.severity === 'warning')) this.flags[index]! |= OWN_WARNING;
    this.rowIssues += result.issues.length;

    const same = this.texts.firstOrAdd(fingerprint(this.contentText(d)), index);
    const donor = donorKey(d);
    const recipient = d.destination?.recipientId;
    const { currencyCode: currency, amount } = d.funds;
    if (same !== -1) {
      this.duplicates[index] = DUPLICATE_ROW;
      this.related[index] = same;
    } else if (donor !== undefined && typeof recipient === 'string' && typeof amount === 'number') {
      const earlier = this.gifts.firstOrAdd(
        fingerprint(`${donor}\u0000${recipient}\u0000${kindOf(currency)}\u0000${String(amount)}`),
        index,
      );
      if (earlier !== -1) {
        this.duplicates[index] = DUPLICATE_GIFT;
        this.related[index] = earlier;
      }
    }
    if (typeof amount === 'number' && typeof currency === 'string') {
      let id = this.currencyIds.get(currency);
      if (id === undefined) {
        id = this.currencies.push(currency);
        this.currencyIds.set(currency, id);
      }
      this.currencyOf[index] = id;
      this.amounts[index] = amount;
    }
  }

  /**
   * The donation's content as text, the ignored metadata keys (the row reference) left out, and
   * no metadata when nothing else is left, as canonicalDonationText. Plain JSON, not canonical: every
   * row goes through the same mapping, which builds its fields in the same order, so equal
   * donations give equal text (and the canonical form's sorting costs a third of the check).
   */
  private contentText(d: MappedRow['donation']): string {
    const metadata = d.metadata;
    if (!metadata || this.ignoreMetadataKeys.length === 0) return JSON.stringify(d);
    const kept: Record<string, string> = {};
    let any = false;
    for (const key in metadata) {
      if (this.ignoreMetadataKeys.includes(key)) continue;
      kept[key] = metadata[key]!;
      any = true;
    }
    return JSON.stringify({ ...d, metadata: any ? kept : undefined });
  }

  /** After the last row: the usual (median) amount of each currency. */
  finish(): void {
    const counts = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      const id = this.currencyOf[i]!;
      if (id !== 0 && this.amounts[i]! > 0) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, n] of counts) {
      if (n < this.outlierMinRows) continue;
      const list = new Float64Array(n);
      let k = 0;
      for (let i = 0; i < this.count; i++)
        if (this.currencyOf[i] === id && this.amounts[i]! > 0) list[k++] = this.amounts[i]!;
      this.medians.set(id, median(list.sort()));
    }
  }

  private label = (index: number): string => String(this.rowNumbers[index]);

  /** The file-wide findings on row `index`, as checkFile words and orders them. */
  issuesOf(index: number): FileIssue[] {
    const issues: FileIssue[] = [];
    const kind = this.duplicates[index];
    if (kind === DUPLICATE_ROW) issues.push(duplicateRowIssue(index, this.related[index]!, this.label));
    else if (kind === DUPLICATE_GIFT)
      issues.push(duplicateGiftIssue(index, this.related[index]!, this.label));
    const id = this.currencyOf[index]!;
    const usual = id === 0 ? undefined : this.medians.get(id);
    const amount = this.amounts[index]!;
    if (usual !== undefined && amount >= usual * this.outlierFactor) {
      const currency = this.currencies[id - 1]!;
      issues.push(unusualAmountIssue(index, amount, currency, usual, this.outlierFactor, this.label));
    }
    return issues;
  }

  private isUnusual(index: number): boolean {
    const id = this.currencyOf[index]!;
    const usual = id === 0 ? undefined : this.medians.get(id);
    return usual !== undefined && this.amounts[index]! >= usual * this.outlierFactor;
  }

  private hasFileIssue(index: number): boolean {
    return this.duplicates[index] !== NO_DUPLICATE || this.isUnusual(index);
  }

  /** Every finding the listing will show: each row's own and the file-wide ones. */
  issueCount(): number {
    let count = this.rowIssues;
    for (let i = 0; i < this.count; i++) {
      if (this.duplicates[i] !== NO_DUPLICATE) count++;
      if (this.isUnusual(i)) count++;
    }
    return count;
  }

  isValid(index: number): boolean {
    return (this.flags[index]! & VALID) !== 0;
  }

  /** The source row numbers of the invalid rows, the first `limit` of them. */
  invalidRows(limit = Number.POSITIVE_INFINITY): number[] {
    const rows: number[] = [];
    for (let i = 0; i < this.count && rows.length < limit; i++)
      if (!this.isValid(i)) rows.push(this.rowNumbers[i]!);
    return rows;
  }

  counts(): { rows: number; valid: number; invalid: number; warnings: number } {
    let warnings = 0;
    for (let i = 0; i < this.count; i++)
      if ((this.flags[i]! & OWN_WARNING) !== 0 || this.hasFileIssue(i)) warnings++;
    return { rows: this.count, valid: this.valid, invalid: this.count - this.valid, warnings };
  }

  totals(): CurrencyTotal[] {
    return [...this.totalsByCurrency.values()].sort((a, b) => b.count - a.count);
  }
}
