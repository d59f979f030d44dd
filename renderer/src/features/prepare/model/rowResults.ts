import type { MappedRow } from '../../../../../shared/mapping';
import type { CheckableRow, CurrencyTotal } from '../../../../../shared/workspace';
import { SEED_LIVE, SEED_VALID, SEED_WARNED, type RowSeed } from './rowSeed';

export interface RecipientTotal {
  recipientId: string;
  currencyCode: string;
  amount: number;
  count: number;
}

/** How seeded rows are checked again when their issues are wanted: the row as it is now, and its check. */
export interface LazyCheck {
  rowOf(key: number): CheckableRow | undefined;
  check(row: CheckableRow): MappedRow;
}

/**
 * The checked result of every row, with counts and totals kept up to date as rows change, so an
 * edit costs the work of its own rows and not of the whole sheet (100,000 rows stay instant).
 *
 * Rows checked on another thread at import arrive as a seed (flags and amounts in typed arrays).
 * Until such a row changes, its part of the counts comes from the seed, and its full result (issues,
 * donation) is worked out here only when someone asks for it, kept while the row stays the same.
 */
export class RowResults {
  private readonly byKey = new Map<number, MappedRow>();
  private valid = 0;
  private readonly warned = new Set<number>();
  private readonly totals = new Map<string, CurrencyTotal>();
  private readonly recipients = new Map<string, RecipientTotal>();
  private seed: RowSeed | null = null;
  private seeded = 0;
  private readonly lazy = new Map<number, { row: CheckableRow; result: MappedRow }>();

  constructor(private readonly lazyCheck?: LazyCheck) {}

  /** Takes every row of a seed (row keys index its arrays), in one pass over typed arrays. */
  static fromSeed(seed: RowSeed, lazyCheck: LazyCheck): RowResults {
    const results = new RowResults(lazyCheck);
    results.seed = seed;
    const { flags, pair, amount, pairs } = seed;
    const pairCount = new Float64Array(pairs.length);
    const pairAmount = new Float64Array(pairs.length);
    for (let key = 0; key < flags.length; key++) {
      const bits = flags[key] as number;
      if (!(bits & SEED_LIVE)) continue;
      results.seeded++;
      if (bits & SEED_WARNED) results.warned.add(key);
      if (!(bits & SEED_VALID)) continue;
      results.valid++;
      const p = pair[key] as number;
      pairCount[p]! += 1;
      pairAmount[p]! += amount[key] as number;
    }
    pairs.forEach(({ recipientId, currencyCode }, p) => {
      const count = pairCount[p] as number;
      if (count === 0) return;
      const total = results.totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
      total.count += count;
      total.amount += pairAmount[p] as number;
      results.totals.set(currencyCode, total);
      results.recipients.set(`${recipientId}|${currencyCode}`, {
        recipientId,
        currencyCode,
        count,
        amount: pairAmount[p] as number,
      });
    });
    return results;
  }

  get size(): number {
    return this.byKey.size + this.seeded;
  }

  private isSeeded(key: number): boolean {
    return this.seed !== null && ((this.seed.flags[key] ?? 0) & SEED_LIVE) !== 0;
  }

  /** Whether the row has a result (checked here or seeded). */
  has(key: number): boolean {
    return this.byKey.has(key) || this.isSeeded(key);
  }

  /** Whether the row is valid, without working out its issues; undefined when it has no result. */
  isValid(key: number): boolean | undefined {
    const own = this.byKey.get(key);
    if (own) return own.ok;
    if (!this.isSeeded(key)) return undefined;
    return ((this.seed as RowSeed).flags[key]! & SEED_VALID) !== 0;
  }

  /** Whether the row has a warning of its own, without working out its issues (F8's second pass). */
  hasWarning(key: number): boolean {
    return this.warned.has(key);
  }

  get(key: number): MappedRow | undefined {
    const own = this.byKey.get(key);
    if (own || !this.isSeeded(key) || !this.lazyCheck) return own;
    const row = this.lazyCheck.rowOf(key);
    if (!row) return undefined;
    const kept = this.lazy.get(key);
    if (kept && kept.row === row) return kept.result;
    const result = this.lazyCheck.check(row);
    this.lazy.set(key, { row, result });
    return result;
  }

  set(key: number, result: MappedRow): void {
    this.remove(key);
    this.byKey.set(key, result);
    this.count(key, result, 1);
  }

  remove(key: number): void {
    if (this.isSeeded(key)) {
      this.unseed(key);
      return;
    }
    const old = this.byKey.get(key);
    if (!old) return;
    this.count(key, old, -1);
    this.byKey.delete(key);
  }

  /** Takes a seeded row's part out of the sums; from now on the row is checked here. */
  private unseed(key: number): void {
    const seed = this.seed as RowSeed;
    const bits = seed.flags[key] as number;
    seed.flags[key] = 0;
    this.seeded--;
    this.lazy.delete(key);
    if (bits & SEED_WARNED) this.warned.delete(key);
    if (!(bits & SEED_VALID)) return;
    const { recipientId, currencyCode } = seed.pairs[seed.pair[key] as number] as RowSeed['pairs'][number];
    this.addToSums(recipientId, currencyCode, seed.amount[key] as number, -1);
  }

  private count(key: number, r: MappedRow, sign: 1 | -1): void {
    if (r.issues.some((i) => i.severity === 'warning')) {
      if (sign > 0) this.warned.add(key);
      else this.warned.delete(key);
    }
    if (!r.ok) return;
    this.addToSums(
      r.donation.destination.recipientId,
      r.donation.funds.currencyCode,
      r.donation.funds.amount,
      sign,
    );
  }

  private addToSums(recipientId: string, currencyCode: string, amount: number, sign: 1 | -1): void {
    this.valid += sign;
    const total = this.totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
    total.count += sign;
    total.amount += sign * amount;
    if (total.count === 0) this.totals.delete(currencyCode);
    else this.totals.set(currencyCode, total);
    const id = `${recipientId}|${currencyCode}`;
    const recipient = this.recipients.get(id) ?? { recipientId, currencyCode, amount: 0, count: 0 };
    recipient.count += sign;
    recipient.amount += sign * amount;
    if (recipient.count === 0) this.recipients.delete(id);
    else this.recipients.set(id, recipient);
  }

  /** Counts; `extraWarned` are rows with warnings from across-rows checks. */
  counts(extraWarned: Iterable<number> = []): {
    rows: number;
    valid: number;
    invalid: number;
    warnings: number;
  } {
    let warnings = this.warned.size;
    for (const key of extraWarned) if (!this.warned.has(key) && this.has(key)) warnings++;
    return { rows: this.size, valid: this.valid, invalid: this.size - this.valid, warnings };
  }

  currencyTotals(): CurrencyTotal[] {
    return [...this.totals.values()].map((t) => ({ ...t })).sort((a, b) => b.count - a.count);
  }

  /** The largest recipients by amount: one pass keeping the top few, not a sort of every recipient. */
  largestRecipients(limit = 5): RecipientTotal[] {
    const top: RecipientTotal[] = [];
    for (const r of this.recipients.values()) {
      if (top.length === limit && r.amount <= (top[limit - 1] as RecipientTotal).amount) continue;
      let at = top.length;
      while (at > 0 && (top[at - 1] as RecipientTotal).amount < r.amount) at--;
      top.splice(at, 0, r);
      if (top.length > limit) top.pop();
    }
    return top.map((r) => ({ ...r }));
  }
}
