/*
 * Totals of the donations, from the running sums (donation_sum) and the indexes: per status and
 * currency, per bulk for the upload controls and the month report, and of those sent one by one.
 */
import { countParts, nextMonth, OPEN, type DonationFilter } from './donationFilters';
import type { DonationScope } from './donationPaging';
import type { StoredStatus } from './storedDonation';

export interface BulkSum {
  bulkId: string;
  status: StoredStatus;
  currencyCode: string;
  count: number;
  amount: number;
  /** Of these, declined ones neither replaced nor dismissed (0 unless DECLINED), and their sum. */
  open: number;
  openAmount: number;
  /** Of these, corrections of a declined donation. */
  corrections: number;
  correctionsAmount: number;
}

export interface OneByOneSum {
  status: StoredStatus;
  currencyCode: string;
  mark: 'replaces' | 'single';
  count: number;
  amount: number;
  open: number;
  openAmount: number;
}

/** Open declined donations of a filter (neither replaced nor dismissed): counted from the running sums and the indexes. */
export function declinedOpen(s: DonationScope, query: Omit<DonationFilter, 'status'>): number {
  let n = 0;
  for (const part of countParts(s.environment, { ...query, status: 'DECLINED' })) {
    n += Number(
      s.db.get<{ n: number }>(
        part.sums
          ? `SELECT coalesce(sum(n), 0) AS n FROM donation_sum WHERE ${part.where} AND open`
          : `SELECT count(*) AS n FROM ${part.from ?? 'donation'} WHERE ${part.where} AND ${OPEN}`,
        ...part.params,
      )?.n ?? 0,
    );
  }
  return n;
}

/** Count and sum (minor units) per status and currency, summed by SQL. */
export function totals(
  s: DonationScope,
  query: Omit<DonationFilter, 'status'> = {},
): Array<{ status: StoredStatus; currencyCode: string; count: number; amount: number }> {
  const sums = new Map<
    string,
    { status: StoredStatus; currencyCode: string; count: number; amount: number }
  >();
  if (!query.bulkIds && !query.oneByOne) {
    // Every donation of the environment: the running sums kept by the database's triggers.
    return s.db
      .all<{ status: StoredStatus; currency: string; n: number; total: number }>(
        `SELECT status, currency, sum(n) AS n, sum(amount) AS total FROM donation_sum
         WHERE environment = ? GROUP BY status, currency HAVING sum(n) > 0 ORDER BY status, currency`,
        s.environment,
      )
      .map((r) => ({
        status: r.status,
        currencyCode: r.currency,
        count: Number(r.n),
        amount: Number(r.total),
      }));
  }
  for (const part of countParts(s.environment, query)) {
    for (const r of s.db.all<{ status: StoredStatus; currency: string; n: number; total: number }>(
      part.sums
        ? `SELECT status, currency, sum(n) AS n, sum(amount) AS total FROM donation_sum
           WHERE ${part.where} GROUP BY status, currency HAVING sum(n) > 0`
        : `SELECT status, currency, count(*) AS n, sum(amount) AS total FROM ${part.from ?? 'donation'}
           WHERE ${part.where} GROUP BY status, currency`,
      ...part.params,
    )) {
      const key = `${r.status} ${r.currency}`;
      const t = sums.get(key) ?? { status: r.status, currencyCode: r.currency, count: 0, amount: 0 };
      t.count += Number(r.n);
      t.amount += Number(r.total);
      sums.set(key, t);
    }
  }
  return [...sums.values()].sort(
    (x, y) => x.status.localeCompare(y.status) || x.currencyCode.localeCompare(y.currencyCode),
  );
}

/** Bulk ids that have donations, among the given ones (null: any), from the bulk index. */
export function bulksWithDonations(s: DonationScope, bulkIds: string[] | null): string[] {
  const rows = bulkIds
    ? s.db.all<{ bulk_id: string }>(
        `SELECT value AS bulk_id FROM json_each(?) WHERE EXISTS
           (SELECT 1 FROM donation WHERE environment = ? AND bulk_id = value)`,
        JSON.stringify(bulkIds),
        s.environment,
      )
    : s.db.all<{ bulk_id: string }>(
        'SELECT DISTINCT bulk_id FROM donation WHERE environment = ? AND bulk_id IS NOT NULL',
        s.environment,
      );
  return rows.map((r) => r.bulk_id);
}

/**
 * Per bulk, status and currency: count and sum, open declined ones, and corrections among them
 * (what the per-upload control totals and the month report need), from the running sums (donation_sum).
 */
export function bulkSums(s: DonationScope, bulkIds: string[]): BulkSum[] {
  if (bulkIds.length === 0) return [];
  return s.db
    .all<{
      bulk_id: string;
      status: StoredStatus;
      currency: string;
      n: number;
      total: number;
      open: number;
      open_total: number;
      corrections: number;
      corrections_total: number;
    }>(
      `SELECT bulk_id, status, currency, sum(n) AS n, sum(amount) AS total,
         sum(CASE WHEN open THEN n ELSE 0 END) AS open,
         sum(CASE WHEN open THEN amount ELSE 0 END) AS open_total,
         sum(CASE WHEN mark = 'replaces' THEN n ELSE 0 END) AS corrections,
         sum(CASE WHEN mark = 'replaces' THEN amount ELSE 0 END) AS corrections_total
       FROM donation_sum WHERE environment = ? AND bulk_id IN (SELECT value FROM json_each(?))
       GROUP BY bulk_id, status, currency HAVING sum(n) > 0`,
      s.environment,
      JSON.stringify(bulkIds),
    )
    .map((r) => ({
      bulkId: r.bulk_id,
      status: r.status,
      currencyCode: r.currency,
      count: Number(r.n),
      amount: Number(r.total),
      open: Number(r.open),
      openAmount: Number(r.open_total),
      corrections: Number(r.corrections),
      correctionsAmount: Number(r.corrections_total),
    }));
}

/**
 * Donations this app created one at a time (no bulk, a correction or a single donation from the
 * form) first recorded in the given UTC month (YYYY-MM), per status, currency and kind.
 */
export function oneByOneSums(s: DonationScope, month: string): OneByOneSum[] {
  return s.db
    .all<{
      status: StoredStatus;
      currency: string;
      mark: 'replaces' | 'single';
      n: number;
      total: number;
      open: number;
      open_total: number;
    }>(
      `SELECT status, currency, mark, count(*) AS n, sum(amount) AS total,
         sum(${OPEN}) AS open, sum(CASE WHEN ${OPEN} THEN amount ELSE 0 END) AS open_total
       FROM donation WHERE environment = ? AND bulk_id IS NULL AND mark IS NOT NULL
         AND first_seen_at >= ? AND first_seen_at < ?
       GROUP BY status, currency, mark`,
      s.environment,
      `${month}-01`,
      nextMonth(month),
    )
    .map((r) => ({
      status: r.status,
      currencyCode: r.currency,
      mark: r.mark,
      count: Number(r.n),
      amount: Number(r.total),
      open: Number(r.open),
      openAmount: Number(r.open_total),
    }));
}
