/*
 * Writing held donations, single attempts and the last refresh to the database, with the running
 * sums (donation_sum) changed in the same transaction.
 */
import { REPLACES_KEY, SINGLE_KEY } from '../../../shared/mapping';
import type { DeskDatabase } from '../db/deskDatabase';
import type { Basis, SumKey } from './donationRows';
import type { SingleAttempt, StoredDonation } from './storedDonation';

/**
 * Changes to the running sums gathered while donations are written, applied once at the end of the
 * same transaction: each donation's old values are read under the write lock, so the sums stay
 * exact whichever process writes.
 */
export class SumChanges {
  private readonly changes = new Map<string, { key: unknown[]; n: number; amount: number }>();

  add(row: SumKey, sign: 1 | -1): void {
    const open =
      row.status === 'DECLINED' && (row.resolution_kind === null || row.resolution_kind === 'replacing');
    const key = [row.bulk_id ?? '', row.status, row.currency ?? '', row.mark ?? '', open ? 1 : 0];
    // Joined rather than JSON.stringify'd: two keys per donation written, on a refresh's hot path.
    const id = key.join('\u0000');
    const t = this.changes.get(id) ?? { key, n: 0, amount: 0 };
    t.n += sign;
    t.amount += sign * (row.amount ?? 0);
    this.changes.set(id, t);
  }

  apply(db: DeskDatabase, environment: string): void {
    for (const { key, n, amount } of this.changes.values()) {
      if (n === 0 && amount === 0) continue;
      db.run(
        `INSERT INTO donation_sum (environment, bulk_id, status, currency, mark, open, n, amount)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET n = n + excluded.n, amount = amount + excluded.amount`,
        environment,
        ...(key as [string, string, string, string, number]),
        n,
        amount,
      );
    }
    this.changes.clear();
  }
}

/** When donations answered as stored were last seen: one statement per time (a refresh has one). */
export function touchDonations(
  db: DeskDatabase,
  environment: string,
  touched: Array<[string, string]>,
): void {
  const byTime = new Map<string, string[]>();
  for (const [id, at] of touched) {
    const ids = byTime.get(at) ?? [];
    ids.push(id);
    byTime.set(at, ids);
  }
  for (const [at, ids] of byTime) {
    db.run(
      'UPDATE donation SET last_seen_at = ? WHERE environment = ? AND id IN (SELECT value FROM json_each(?))',
      at,
      environment,
      JSON.stringify(ids),
    );
  }
}

const INSERT_DONATION = `INSERT INTO donation (environment, id, bulk_id, status, status_updated, amount, currency,
       first_seen_at, last_seen_at, replaces, resolution_kind, resource, history, row, resolution, mark)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// Built once: the statement cache is keyed by the text, which a template built per call would hash anew.
const INSERT_NEW = `${INSERT_DONATION} ON CONFLICT (environment, id) DO NOTHING`;
const UPSERT_DONATION = `${INSERT_DONATION}
     ON CONFLICT (environment, id) DO UPDATE SET status = excluded.status,
       status_updated = excluded.status_updated, amount = excluded.amount, currency = excluded.currency,
       last_seen_at = excluded.last_seen_at,
       replaces = excluded.replaces, resolution_kind = excluded.resolution_kind,
       resource = excluded.resource, history = excluded.history, row = excluded.row,
       resolution = excluded.resolution, mark = excluded.mark`;

/** What a donation counts under in the running sums, and its mark (the column the month report sums by). */
function markOf(d: StoredDonation): string | null {
  const metadata = d.resource.attributes.metadata ?? {};
  return d.replaces !== null || metadata[REPLACES_KEY] !== undefined
    ? 'replaces'
    : metadata[SINGLE_KEY] !== undefined
      ? 'single'
      : null;
}

/** A donation's JSON texts as stored: its resource, history, row and resolution. */
interface StoredTexts {
  resource: string;
  history: string;
  row: string | null;
  resolution: string | null;
}

function storedTexts(d: StoredDonation): StoredTexts {
  return {
    resource: JSON.stringify(d.resource),
    history: JSON.stringify(d.history),
    row: d.row === null ? null : JSON.stringify(d.row),
    resolution: d.resolution === null ? null : JSON.stringify(d.resolution),
  };
}

/** A donation's sixteen values, in the order of INSERT_DONATION, INSERT_NEW and UPSERT_DONATION. */
function rowValues(
  environment: string,
  d: StoredDonation,
  mark: string | null,
  texts: StoredTexts,
): Array<string | number | null> {
  const attributes = d.resource.attributes;
  return [
    environment,
    d.resource.id,
    attributes.bulkId ?? null,
    attributes.state.processingStatus,
    attributes.state.statusLastUpdated ?? null,
    attributes.funds.amount,
    attributes.funds.currencyCode,
    d.firstSeenAt,
    d.lastSeenAt,
    d.replaces,
    d.resolution?.kind ?? null,
    texts.resource,
    texts.history,
    texts.row,
    texts.resolution,
    mark,
  ];
}

/** What a donation counts under in the running sums (its bulk as given). */
function sumKeyOf(d: StoredDonation, mark: string | null, bulkId: string | null): SumKey {
  const attributes = d.resource.attributes;
  return {
    bulk_id: bulkId,
    status: attributes.state.processingStatus,
    currency: attributes.funds.currencyCode,
    mark,
    resolution_kind: d.resolution?.kind ?? null,
    amount: attributes.funds.amount,
  };
}

/**
 * Rows per INSERT of donations not stored when read: one statement for a whole page of them rather
 * than one per donation (see decision 0170). The sizes a batch is cut into, largest first, so only
 * these few statements' texts are ever prepared (16 values a row: 4,000 at most, under SQLite's
 * limit of 32,766).
 */
const NEW_ROWS_PER_STATEMENT = [250, 25, 1] as const;
const insertNewText = new Map<number, string>();
function insertNewOf(rows: number): string {
  let text = insertNewText.get(rows);
  if (!text) {
    const one = `(${Array.from({ length: 16 }, () => '?').join(', ')})`;
    text = `${INSERT_DONATION.slice(0, INSERT_DONATION.indexOf('VALUES'))}VALUES ${Array.from({ length: rows }, () => one).join(', ')}
     ON CONFLICT (environment, id) DO NOTHING RETURNING id`;
    insertNewText.set(rows, text);
  }
  return text;
}

/**
 * Writes donations that were not stored when `record` read them (a basis of null), in the order
 * given, a few statements for a whole batch, and counts each one inserted in the running sums. One
 * that another process stored meanwhile is not inserted (RETURNING leaves it out): it is then read
 * and written over as `writeDonation` does, so the sums stay exact whichever process wrote first.
 */
export function insertNewDonations(
  db: DeskDatabase,
  environment: string,
  donations: readonly StoredDonation[],
  sums: SumChanges,
): void {
  let at = 0;
  for (const size of NEW_ROWS_PER_STATEMENT) {
    while (donations.length - at >= size) {
      const batch = donations.slice(at, at + size);
      at += size;
      const params: Array<string | number | null> = [];
      const marks: Array<string | null> = [];
      for (const d of batch) {
        const mark = markOf(d);
        marks.push(mark);
        params.push(...rowValues(environment, d, mark, storedTexts(d)));
      }
      const inserted = db.rows(insertNewOf(size), ...params);
      const all = inserted.length === batch.length;
      const ids = all ? null : new Set(inserted.map((r) => r[0] as string));
      for (const [i, d] of batch.entries()) {
        if (all || ids?.has(d.resource.id)) {
          sums.add(sumKeyOf(d, marks[i] ?? null, d.resource.attributes.bulkId ?? null), 1);
        } else {
          // Stored by another process since it was read: read under the write lock and written over.
          writeDonation(db, environment, d, sums);
        }
      }
    }
  }
}

/**
 * Writes a held donation and its change to the running sums. `basis`: what it counted under when
 * `record` read it; the update then only applies if the row still counts so (another process may
 * have written it since), and otherwise the row is read again under the write lock, as for a new one.
 * A `basis` of null: it was not stored when read; it is inserted as it is, and only if another
 * process stored it meanwhile is the row read and written over (a refresh's first reading of an
 * upload inserts 100,000 rows: one statement each instead of two).
 */
export function writeDonation(
  db: DeskDatabase,
  environment: string,
  d: StoredDonation,
  sums: SumChanges,
  basis?: Basis | null,
): void {
  const attributes = d.resource.attributes;
  // first_seen_at is written once: `record` never changes it, and leaving it out of the update spares
  // its index on every refresh (and keeps the earliest when two processes first saw it together).

  // bulk_id is left out too (a donation never changes bulk): the index that pages a bulk in the
  // order first seen is then never rewritten by a refresh.
  const mark = markOf(d);
  const texts = storedTexts(d);
  const values = rowValues(environment, d, mark, texts);
  const after = sumKeyOf(d, mark, null);
  if (basis === null) {
    const { changes } = db.run(INSERT_NEW, ...values);
    if (changes === 1) {
      sums.add({ ...after, bulk_id: attributes.bulkId ?? null }, 1);
      return;
    }
  }
  if (basis) {
    const { changes } = db.run(
      `UPDATE donation SET status = ?, status_updated = ?, amount = ?, currency = ?, last_seen_at = ?,
         replaces = ?, resolution_kind = ?, resource = ?, history = ?, row = ?, resolution = ?, mark = ?
       WHERE rowid = ? AND environment = ? AND id = ? AND bulk_id IS ? AND status IS ? AND currency IS ?
         AND mark IS ? AND resolution_kind IS ? AND amount IS ?`,
      after.status,
      attributes.state.statusLastUpdated ?? null,
      after.amount,
      after.currency,
      d.lastSeenAt,
      d.replaces,
      after.resolution_kind,
      texts.resource,
      texts.history,
      texts.row,
      texts.resolution,
      mark,
      basis.seq,
      environment,
      d.resource.id,
      basis.bulk_id,
      basis.status,
      basis.currency,
      basis.mark,
      basis.resolution_kind,
      basis.amount,
    );
    if (changes === 1) {
      sums.add(basis, -1);
      sums.add({ ...after, bulk_id: basis.bulk_id }, 1);
      return;
    }
  }
  const before = db.get<SumKey>(
    `SELECT bulk_id, status, currency, mark, resolution_kind, amount FROM donation
     WHERE environment = ? AND id = ?`,
    environment,
    d.resource.id,
  );
  db.run(UPSERT_DONATION, ...values);
  if (before) sums.add(before, -1);
  // The bulk is never rewritten (see above): what was stored stays.
  sums.add({ ...after, bulk_id: before ? before.bulk_id : (attributes.bulkId ?? null) }, 1);
}

export function writeSingle(
  db: DeskDatabase,
  environment: string,
  clientRef: string,
  attempt: SingleAttempt | null,
): void {
  if (attempt === null) {
    db.run('DELETE FROM single_attempt WHERE environment = ? AND client_ref = ?', environment, clientRef);
    return;
  }
  db.run(
    `INSERT INTO single_attempt (environment, client_ref, at, donation_id) VALUES (?, ?, ?, ?)
     ON CONFLICT (environment, client_ref) DO UPDATE SET at = excluded.at, donation_id = excluded.donation_id`,
    environment,
    clientRef,
    attempt.at,
    attempt.donationId,
  );
}

export function writeRefresh(db: DeskDatabase, environment: string, at: string | null): void {
  db.run(
    `INSERT INTO donation_refresh (environment, last_refresh_at) VALUES (?, ?)
     ON CONFLICT (environment) DO UPDATE SET last_refresh_at = excluded.last_refresh_at`,
    environment,
    at,
  );
}
