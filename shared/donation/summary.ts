/** Count and sum of one currency's donations; amount in minor units. */
export interface CurrencyTotal {
  currencyCode: string;
  count: number;
  amount: number;
}

export interface RecipientTotal {
  recipientId: string;
  currencyCode: string;
  count: number;
  amount: number;
}

interface Summable {
  destination?: { recipientId?: unknown };
  funds?: { amount?: unknown; currencyCode?: unknown };
}

function readable(
  d: Summable | undefined,
): { recipient: unknown; currency: string; amount: number } | undefined {
  const amount = d?.funds?.amount;
  const currency = d?.funds?.currencyCode;
  if (typeof amount !== 'number' || !Number.isInteger(amount) || typeof currency !== 'string')
    return undefined;
  return { recipient: d?.destination?.recipientId, currency, amount };
}

/**
 * Count and sum per currency, sorted by currency code (the CLI's `totals`, the summary screen).
 * Sums are exact while below 2^53 minor units (90 trillion dollars); money is never mixed across
 * currencies. Rows without a usable amount and currency are skipped.
 */
export function totalsByCurrency(donations: Iterable<Summable | undefined>): CurrencyTotal[] {
  const totals = new Map<string, CurrencyTotal>();
  for (const d of donations) {
    const r = readable(d);
    if (!r) continue;
    const t = totals.get(r.currency);
    if (t) {
      t.count++;
      t.amount += r.amount;
    } else totals.set(r.currency, { currencyCode: r.currency, count: 1, amount: r.amount });
  }
  return [...totals.values()].sort((a, b) =>
    a.currencyCode < b.currencyCode ? -1 : a.currencyCode > b.currencyCode ? 1 : 0,
  );
}

/** The recipients receiving the most, per currency (amounts in different currencies are not comparable). */
export function largestRecipients(donations: Iterable<Summable | undefined>, limit = 10): RecipientTotal[] {
  const totals = new Map<string, RecipientTotal>();
  for (const d of donations) {
    const r = readable(d);
    if (!r || typeof r.recipient !== 'string') continue;
    const key = `${r.currency}\u0000${r.recipient}`;
    const t = totals.get(key);
    if (t) {
      t.count++;
      t.amount += r.amount;
    } else
      totals.set(key, { recipientId: r.recipient, currencyCode: r.currency, count: 1, amount: r.amount });
  }
  const byCurrency = new Map<string, RecipientTotal[]>();
  for (const t of totals.values()) {
    const list = byCurrency.get(t.currencyCode) ?? [];
    list.push(t);
    byCurrency.set(t.currencyCode, list);
  }
  return [...byCurrency.keys()]
    .sort()
    .flatMap((c) =>
      (byCurrency.get(c) ?? [])
        .sort((a, b) => b.amount - a.amount || (a.recipientId < b.recipientId ? -1 : 1))
        .slice(0, limit),
    );
}
