/*
 * Which donations a page, count or total is about, as SQL: each filter answered from one index
 * (see db/schema.ts), in parts that never overlap when an OR across columns would read every row.
 */
import type { StoredStatus } from './storedDonation';

/**
 * Which donations: those of the given bulks (null or absent: every donation of the environment),
 * with `singles` also those sent one by one that correct nothing, with `corrections` also the
 * corrections of any of those; `oneByOne` keeps only those of no bulk; `status` only one state.
 */
export interface DonationFilter {
  bulkIds?: string[] | null;
  singles?: boolean;
  corrections?: boolean;
  oneByOne?: boolean;
  status?: StoredStatus;
}

export interface DonationQuery extends DonationFilter {
  order?: keyof typeof ORDER_BY;
  limit: number;
  offset?: number;
  /** Keyset paging (order firstSeen only): the page after this donation (see cursorAfter). */
  after?: PageCursor;
}

export interface PageCursor {
  firstSeenAt: string;
  /** The donation's rowid: the order it was recorded in. */
  seq: number;
}

/** A declined donation is open until replaced or dismissed (see isOpenResolution). */
export const OPEN = "(resolution_kind IS NULL OR resolution_kind = 'replacing')";

/** Orders with an index behind them (see db/schema.ts); rowid last so pages never overlap. */
export const ORDER_BY = {
  firstSeen: 'first_seen_at, rowid',
  // Declined ones neither replaced nor dismissed first: a short list of a long history shows those.
  openFirst: `${OPEN} DESC, first_seen_at, rowid`,
} as const;

export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * A correction of a donation in scope: the donation it replaces looked up by its key for each
 * correction (corrections are few; `IN (SELECT …)` would first list every donation in scope).
 */
const correctionOf = (inner: string | null): string =>
  `EXISTS (SELECT 1 FROM donation AS o WHERE o.environment = ? AND o.id = donation.replaces AND ${inner ?? '1'})`;

/** The donations a filter's bulks and singles name directly (not their corrections). */
function scopeOf(query: DonationFilter, alias: string, params: Array<string | number>): string | null {
  if (!query.bulkIds) return null;
  // One bulk as an equality, so its index gives the page in order without reading other bulks.
  const one = query.bulkIds.length === 1;
  params.push(one ? (query.bulkIds[0] as string) : JSON.stringify(query.bulkIds));
  const inBulks = one ? `${alias}bulk_id = ?` : `${alias}bulk_id IN (SELECT value FROM json_each(?))`;
  return query.singles ? `(${inBulks} OR (${alias}bulk_id IS NULL AND ${alias}replaces IS NULL))` : inBulks;
}

export function whereOf(
  environment: string,
  query: DonationFilter,
): { where: string; params: Array<string | number> } {
  const clauses = ['environment = ?'];
  const params: Array<string | number> = [environment];
  if (query.oneByOne) {
    // Of no bulk: what was sent one by one, and corrections of the filter's donations (read from
    // the bulk index's entries of no bulk, in order).
    clauses.push('bulk_id IS NULL');
    const kinds: string[] = [];
    if (query.singles) kinds.push('replaces IS NULL');
    if (query.corrections && query.bulkIds) {
      params.push(environment);
      const inner = scopeOf(query, 'o.', params);
      kinds.push(`(replaces IS NOT NULL AND ${correctionOf(inner)})`);
    }
    if (query.bulkIds) clauses.push(kinds.length > 0 ? `(${kinds.join(' OR ')})` : '0');
    if (query.status) {
      clauses.push('status = ?');
      params.push(query.status);
    }
    return { where: clauses.join(' AND '), params };
  }
  const direct = scopeOf(query, '', params);
  if (direct) {
    if (query.corrections) {
      params.push(environment);
      const inner = scopeOf(query, 'o.', params);
      clauses.push(`(${direct} OR (replaces IS NOT NULL AND ${correctionOf(inner)}))`);
    } else clauses.push(direct);
  }
  if (query.status) {
    clauses.push('status = ?');
    params.push(query.status);
  }
  return { where: clauses.join(' AND '), params };
}

/**
 * A filter as disjoint parts each answered from one index (an OR across columns would read every
 * row): the bulks' donations, those of no bulk, and corrections of them that sit in another bulk.
 */
export function countParts(
  environment: string,
  query: DonationFilter,
): Array<{ where: string; params: Array<string | number>; from?: string; sums?: boolean }> {
  if (!query.bulkIds || (query.oneByOne && !query.singles && !query.corrections))
    return [whereOf(environment, query)];
  const status = (clauses: string[], params: Array<string | number>) => {
    if (query.status) {
      clauses.push('status = ?');
      params.push(query.status);
    }
    return { where: clauses.join(' AND '), params };
  };
  const parts: Array<{ where: string; params: Array<string | number>; from?: string; sums?: boolean }> = [];
  const bulks = JSON.stringify(query.bulkIds);
  if (!query.oneByOne) {
    // The bulks' own donations: from the running sums (a few rows per bulk, not every donation).
    parts.push({
      ...status(['environment = ?', 'bulk_id IN (SELECT value FROM json_each(?))'], [environment, bulks]),
      sums: true,
    });
  }
  // Only the bulks' own donations (the open declined ones among them too, which no index covers).
  if (!query.singles && !query.corrections) return parts;
  const scopeParams: Array<string | number> = [environment];
  const inner = scopeOf(query, 'o.', scopeParams);
  const corrections = correctionOf(inner);
  const noBulk: string[] = [];
  const noBulkParams: Array<string | number> = [environment];
  if (query.singles) noBulk.push('replaces IS NULL');
  if (query.corrections) {
    noBulk.push(`(replaces IS NOT NULL AND ${corrections})`);
    noBulkParams.push(...scopeParams);
  }
  parts.push(status(['environment = ?', 'bulk_id IS NULL', `(${noBulk.join(' OR ')})`], noBulkParams));
  if (query.corrections && !query.oneByOne) {
    // INDEXED BY: corrections are few; the planner would otherwise walk every other bulk's entries.
    parts.push({
      ...status(
        [
          'environment = ?',
          'replaces IS NOT NULL',
          'bulk_id IS NOT NULL',
          'bulk_id NOT IN (SELECT value FROM json_each(?))',
          corrections,
        ],
        [environment, bulks, ...scopeParams],
      ),
      from: 'donation INDEXED BY donation_replaces',
    });
  }
  return parts;
}
