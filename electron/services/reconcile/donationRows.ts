/*
 * The donation table's rows as the store reads them, and what each counts under in the running sums.
 */
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import type { Resolution } from '../../../shared/contract/reconcileChannels';
import type { DeskDatabase } from '../db/deskDatabase';
import type { DonationRowLink, StoredDonation } from './storedDonation';

export interface DonationRow {
  id: string;
  resource: string;
  history: string;
  row: string | null;
  first_seen_at: string;
  last_seen_at: string;
  resolution: string | null;
  replaces: string | null;
}

export const SELECT_DONATION =
  'SELECT id, resource, history, row, first_seen_at, last_seen_at, resolution, replaces FROM donation';

/** The database and the environment whose donations are asked about. */
export interface DonationScope {
  db: DeskDatabase;
  environment: string;
}

/** A stored donation as `record` reads it: its record's columns and what it counts under in the sums. */
export type PriorRow = Omit<DonationRow, 'resource'> &
  SumKey & { status_updated: string | null; resource: string; seq: number };

// The columns in the order priorRowOf reads them.
export const SELECT_PRIOR = `SELECT id, history, row, first_seen_at, last_seen_at, resolution, replaces, status_updated,
  resource, bulk_id, status, currency, mark, resolution_kind, amount, rowid AS seq FROM donation`;

/** A row of SELECT_PRIOR read as an array (DeskDatabase.rows), in its columns' order. */
export function priorRowOf(v: unknown[]): PriorRow {
  return {
    id: v[0] as string,
    history: v[1] as string,
    row: v[2] as string | null,
    first_seen_at: v[3] as string,
    last_seen_at: v[4] as string,
    resolution: v[5] as string | null,
    replaces: v[6] as string | null,
    status_updated: v[7] as string | null,
    resource: v[8] as string,
    bulk_id: v[9] as string | null,
    status: v[10] as string,
    currency: v[11] as string | null,
    mark: v[12] as string | null,
    resolution_kind: v[13] as string | null,
    amount: v[14] as number | null,
    seq: v[15] as number,
  };
}

/** What `record` needs of a donation already known (its resource left as stored text). */
export type Prior = Omit<StoredDonation, 'resource'> & {
  statusLastUpdated: string | undefined;
  /** As saved (absent while held): the resource's text and what it counts under in the sums. */
  stored?: { text: string; sums: Basis };
};

export function fromRow(row: DonationRow): StoredDonation {
  return {
    resource: JSON.parse(row.resource) as DonationResource,
    history: JSON.parse(row.history) as StoredDonation['history'],
    row: row.row === null ? null : (JSON.parse(row.row) as DonationRowLink),
    firstSeenAt: row.first_seen_at,
    lastSeenAt: row.last_seen_at,
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as Resolution),
    replaces: row.replaces,
  };
}

/** What a donation counts in `donation_sum` under (see db/schema.ts, migration 2). */
export interface SumKey {
  bulk_id: string | null;
  status: string;
  currency: string | null;
  mark: string | null;
  resolution_kind: string | null;
  amount: number | null;
}

/**
 * What a stored donation counted under when `record` read it, and its rowid: the update then finds
 * the row directly (a refresh writes 100,000 rows) and applies only if the row still counts so.
 */
export type Basis = SumKey & { seq: number };

export function sameRow(a: DonationRowLink, b: DonationRowLink | null): boolean {
  return (
    b !== null &&
    a.workspaceId === b.workspaceId &&
    a.rowKey === b.rowKey &&
    a.rowNumber === b.rowNumber &&
    a.method === b.method
  );
}

/**
 * What `record` needs of a donation already known, without parsing its resource (the largest
 * part of a row): a refresh records every donation of an upload, so this is its hot path. One read
 * gives what `record` needs, the text to compare the answer with, and the sums' key, so `save()`
 * need not read the row again. `touched`: when donations were last seen, held for the next save.
 */
export function readPrior(s: DonationScope, id: string, touched: ReadonlyMap<string, string>): Prior | null {
  const row = s.db.get<PriorRow>(`${SELECT_PRIOR} WHERE environment = ? AND id = ?`, s.environment, id);
  return row ? priorOf(row, touched.get(row.id)) : null;
}

/** A row of SELECT_PRIOR as `record` uses it; `lastSeenAt`: a newer time held for the next save. */
export function priorOf(row: PriorRow, lastSeenAt: string | undefined): Prior {
  return {
    history: JSON.parse(row.history) as StoredDonation['history'],
    row: row.row === null ? null : (JSON.parse(row.row) as DonationRowLink),
    firstSeenAt: row.first_seen_at,
    lastSeenAt: lastSeenAt ?? row.last_seen_at,
    resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as Resolution),
    replaces: row.replaces,
    statusLastUpdated: row.status_updated ?? undefined,
    stored: {
      text: row.resource,
      sums: {
        bulk_id: row.bulk_id,
        status: row.status,
        currency: row.currency,
        mark: row.mark,
        resolution_kind: row.resolution_kind,
        amount: row.amount,
        seq: Number(row.seq),
      },
    },
  };
}
