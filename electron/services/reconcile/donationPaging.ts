/*
 * Pages of the donations, answered by SQL over what is saved (call `save()` first to include held
 * changes): for screens that need one page and its count, never every donation.
 */
import {
  countParts,
  OPEN,
  ORDER_BY,
  whereOf,
  type DonationFilter,
  type DonationQuery,
  type PageCursor,
} from './donationFilters';
import { fromRow, SELECT_DONATION, type DonationRow, type DonationScope } from './donationRows';

export type { DonationScope } from './donationRows';
import type { StoredDonation } from './storedDonation';

/**
 * Donations of a filter, one page in the order first seen, then in the order recorded (the
 * service's order within what it sent at once), so pages never overlap.
 */
export function page(s: DonationScope, query: DonationQuery): StoredDonation[] {
  const limit = Math.max(0, Math.min(query.limit, 10_000));
  const offset = Math.max(0, query.offset ?? 0);
  if (query.order === 'openFirst' && !query.after) return openFirst(s, query, limit, offset);
  const { where, params } = whereOf(s.environment, query);
  const clauses = [where];
  const after = query.after ? [query.after.firstSeenAt, query.after.firstSeenAt, query.after.seq] : [];
  if (query.after) clauses.push('(first_seen_at > ? OR (first_seen_at = ? AND rowid > ?))');
  return s.db
    .all<DonationRow>(
      `${SELECT_DONATION} WHERE ${clauses.join(' AND ')} ORDER BY ${ORDER_BY[query.order ?? 'firstSeen']}
       LIMIT ? OFFSET ?`,
      ...params,
      ...after,
      limit,
      offset,
    )
    .map(fromRow);
}

/**
 * Declined ones neither replaced nor dismissed first, each part in the order first seen: read as
 * two parts, each in its index's order. One query ordered by openness sorted every declined
 * donation with its whole record to give the first few hundred (a quarter of a second at 20,000).
 */
function openFirst(s: DonationScope, query: DonationQuery, limit: number, offset: number): StoredDonation[] {
  const { where, params } = whereOf(s.environment, query);
  const part = (which: string, n: number, skip: number): StoredDonation[] =>
    n === 0
      ? []
      : s.db
          .all<DonationRow>(
            `${SELECT_DONATION} WHERE ${where} AND ${which} ORDER BY ${ORDER_BY.firstSeen} LIMIT ? OFFSET ?`,
            ...params,
            n,
            skip,
          )
          .map(fromRow);
  const open = part(OPEN, limit, offset);
  if (open.length === limit) return open;
  // The open ones the offset went past: all of them when this page holds some, else counted.
  const openCount =
    open.length > 0 || offset === 0
      ? offset + open.length
      : Number(
          s.db.get<{ n: number }>(`SELECT count(*) AS n FROM donation WHERE ${where} AND ${OPEN}`, ...params)
            ?.n ?? 0,
        );
  return [...open, ...part(`NOT ${OPEN}`, limit - open.length, Math.max(0, offset - openCount))];
}

/** Where a page that ended with this donation continues (for `after`). */
export function cursorAfter(s: DonationScope, id: string): PageCursor | null {
  const row = s.db.get<{ first_seen_at: string; seq: number }>(
    'SELECT first_seen_at, rowid AS seq FROM donation WHERE environment = ? AND id = ?',
    s.environment,
    id,
  );
  return row ? { firstSeenAt: row.first_seen_at, seq: Number(row.seq) } : null;
}

/** How many donations `page` can give for this filter (counted from the indexes, in disjoint parts). */
export function count(s: DonationScope, query: DonationFilter): number {
  let n = 0;
  for (const part of countParts(s.environment, query)) {
    n += Number(
      s.db.get<{ n: number }>(
        part.sums
          ? `SELECT coalesce(sum(n), 0) AS n FROM donation_sum WHERE ${part.where}`
          : `SELECT count(*) AS n FROM ${part.from ?? 'donation'} WHERE ${part.where}`,
        ...part.params,
      )?.n ?? 0,
    );
  }
  return n;
}

/**
 * Every donation sent one by one (of no bulk, marked as a single donation or a correction of this
 * app), with when it counts from: what team mode shares with colleagues. Saved donations only.
 */
export function oneByOne(
  s: DonationScope,
): Array<{ id: string; firstSeenAt: string; kind: 'single' | 'replaces' }> {
  return s.db
    .all<{ id: string; first_seen_at: string; mark: string }>(
      `SELECT id, first_seen_at, mark FROM donation
       WHERE environment = ? AND bulk_id IS NULL AND mark IS NOT NULL ORDER BY first_seen_at`,
      s.environment,
    )
    .map((r) => ({
      id: r.id,
      firstSeenAt: r.first_seen_at,
      kind: r.mark === 'replaces' ? 'replaces' : 'single',
    }));
}

/** The rows already tied to a donation, per bulk: what a refresh must not hand out again. */
export function linkedRows(s: DonationScope, bulkIds: string[]): Array<{ bulkId: string; rowKey: number }> {
  const out: Array<{ bulkId: string; rowKey: number }> = [];
  for (const bulkId of bulkIds) {
    // One JSON array per bulk, built by SQL: a row object per donation cost a refresh ~0.2 s per 100,000.
    const keys = s.db.get<{ keys: string }>(
      `SELECT json_group_array(json_extract(row, '$.rowKey')) AS keys FROM donation
       WHERE environment = ? AND bulk_id = ? AND row IS NOT NULL`,
      s.environment,
      bulkId,
    )?.keys;
    for (const rowKey of JSON.parse(keys ?? '[]') as number[]) out.push({ bulkId, rowKey: Number(rowKey) });
  }
  return out;
}

/** Bulks with a donation not yet CLEARED or DECLINED, and every bulk with a donation listed. */
export function bulkStates(s: DonationScope): { open: string[]; listed: string[] } {
  const rows = s.db.all<{ bulk_id: string; open: number }>(
    `SELECT bulk_id, max(n > 0 AND status NOT IN ('CLEARED', 'DECLINED')) AS open FROM donation_sum
     WHERE environment = ? AND bulk_id != '' GROUP BY bulk_id HAVING sum(n) > 0`,
    s.environment,
  );
  return {
    open: rows.filter((r) => Number(r.open) === 1).map((r) => r.bulk_id),
    listed: rows.map((r) => r.bulk_id),
  };
}
