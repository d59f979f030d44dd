import type { MappedRow } from '../../../../../shared/mapping';
import type { CurrencyTotal } from '../../../../../shared/workspace';

export interface RecipientTotal {
  recipientId: string;
  currencyCode: string;
  amount: number;
  count: number;
}

/**
 * The checked result of every row, with counts and totals kept up to date as rows change, so an
 * edit costs the work of its own rows and not of the whole sheet (100,000 rows stay instant).
 */
export class RowResults {
  private readonly byKey = new Map<number, MappedRow>();
  private valid = 0;
  private readonly warned = new Set<number>();
  private readonly totals = new Map<string, CurrencyTotal>();
  private readonly recipients = new Map<string, RecipientTotal>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: number): MappedRow | undefined {
    return this.byKey.get(key);
  }

  set(key: number, result: MappedRow): void {
    this.remove(key);
    this.byKey.set(key, result);
    this.count(key, result, 1);
  }

  remove(key: number): void {
    const old = this.byKey.get(key);
    if (!old) return;
    this.count(key, old, -1);
    this.byKey.delete(key);
  }

  private count(key: number, r: MappedRow, sign: 1 | -1): void {
    if (r.issues.some((i) => i.severity === 'warning')) {
      if (sign > 0) this.warned.add(key);
      else this.warned.delete(key);
    }
    if (!r.ok) return;
    this.valid += sign;
    const { currencyCode, amount } = r.donation.funds;
    const total = this.totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
    total.count += sign;
    total.amount += sign * amount;
    if (total.count === 0) this.totals.delete(currencyCode);
    else this.totals.set(currencyCode, total);
    const id = `${r.donation.destination.recipientId}|${currencyCode}`;
    const recipient = this.recipients.get(id) ?? {
      recipientId: r.donation.destination.recipientId,
      currencyCode,
      amount: 0,
      count: 0,
    };
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
    for (const key of extraWarned) if (!this.warned.has(key) && this.byKey.has(key)) warnings++;
    return { rows: this.byKey.size, valid: this.valid, invalid: this.byKey.size - this.valid, warnings };
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

  /** Results in the order of the given keys (rows not yet checked are left out). */
  inOrder(keys: readonly number[]): MappedRow[] {
    const out: MappedRow[] = [];
    for (const key of keys) {
      const r = this.byKey.get(key);
      if (r) out.push(r);
    }
    return out;
  }
}
