import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { donationResourceSchema, type DonationResource } from '../../../shared/bulk-file/serviceSchemas';
import {
  donationRowSchema,
  historyEntrySchema,
  resolutionSchema,
  type Resolution,
} from '../../../shared/contract/reconcileChannels';
import { REPLACES_KEY, SINGLE_KEY } from '../../../shared/mapping';
import { DeskFailure } from '../../../shared/result';
import { databaseOf, type DeskDatabase } from '../db/deskDatabase';
import { importOnce } from '../db/legacyFiles';

export type DonationRowLink = z.infer<typeof donationRowSchema>;

const storedDonationSchema = z.object({
  resource: donationResourceSchema,
  history: z.array(historyEntrySchema),
  row: donationRowSchema.nullable(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  // Defaults keep files written before corrections existed readable.
  resolution: resolutionSchema.nullable().default(null),
  replaces: z.string().nullable().default(null),
});
export type StoredDonation = z.infer<typeof storedDonationSchema>;

/** A single donation from the form: written before the POST, its id added once the service answers. */
const singleAttemptSchema = z.object({
  clientRef: z.string(),
  at: z.string(),
  donationId: z.string().nullable(),
});
export type SingleAttempt = z.infer<typeof singleAttemptSchema>;

const storeFileSchema = z.object({
  version: z.literal(1),
  lastRefreshAt: z.string().nullable(),
  donations: z.array(storedDonationSchema),
  singles: z.array(singleAttemptSchema).default([]),
});

/**
 * Whether a donation carries one of the app's own metadata pairs for donations it sends one at a
 * time: a correction (the declined donation it replaces) or a single donation from the form.
 */
export function markedByThisApp(resource: DonationResource): boolean {
  const metadata = resource.attributes.metadata ?? {};
  return metadata[REPLACES_KEY] !== undefined || metadata[SINGLE_KEY] !== undefined;
}

export const FINAL_DONATION_STATES = new Set(['CLEARED', 'DECLINED']);

/**
 * What this app has seen of each donation: the last answer from the service, every state it was
 * seen in (with when it was first seen so), and the workspace row it came from. One environment's
 * rows of the data folder's database. Changes are held until `save()`, which writes them in one
 * transaction (durable when it resolves), so a crash leaves the picture of the last save, as the
 * JSON file of version 0.1 did; reads see the database plus what is held.
 */
export class DonationStore {
  private readonly held = new Map<string, StoredDonation>();
  /**
   * Donations answered exactly as stored (same resource, so same state and statusLastUpdated): only
   * when they were last seen changes, written by `save()` without rewriting the record.
   */
  private readonly touched = new Map<string, string>();
  /** What a held donation counted under in the running sums when it was read (null: not stored then). */
  private readonly basis = new Map<string, Basis | null>();
  private readonly heldSingles = new Map<string, SingleAttempt | null>();
  private heldRefresh: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: DeskDatabase,
    readonly environment: string,
  ) {}

  /**
   * `path` is where version 0.1 kept the environment's store: `<data folder>/reconcile/donations-<env>.json`.
   * The database is the data folder's; that file, if still there, is imported once and kept beside
   * as `.pre-sqlite`.
   */
  static async open(path: string): Promise<DonationStore> {
    const match = /^donations-(.+)\.json$/.exec(basename(path));
    if (!match) throw new DeskFailure('USAGE', `Not a donation store path: ${path}.`);
    const environment = match[1] as string;
    const db = databaseOf(dirname(dirname(path)));
    await importOnce(db, `donations:${environment}`, [path], async () => {
      const text = await readFile(path, 'utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const parsed = storeFileSchema.safeParse(json);
      if (!parsed.success) {
        // Refuse rather than start without it: the file may hold the only record of states seen earlier.
        throw new DeskFailure(
          'STORE_UNREADABLE',
          `The donation store ${path} could not be read. It was left untouched; move it aside to start afresh.`,
        );
      }
      return {
        detail: { donations: parsed.data.donations.length, singles: parsed.data.singles.length },
        write: () => {
          const sums = new SumChanges();
          for (const d of parsed.data.donations) writeDonation(db, environment, d, sums);
          sums.apply(db, environment);
          for (const a of parsed.data.singles) writeSingle(db, environment, a.clientRef, a);
          writeRefresh(db, environment, parsed.data.lastRefreshAt);
        },
      };
    });
    return new DonationStore(db, environment);
  }

  get(id: string): StoredDonation | undefined {
    const held = this.held.get(id);
    if (held) return held;
    const row = this.db.get<DonationRow>(
      `${SELECT_DONATION} WHERE environment = ? AND id = ?`,
      this.environment,
      id,
    );
    return row ? this.fromStored(row) : undefined;
  }

  /** A stored row as held: when it was last seen may be newer than what is saved. */
  private fromStored(row: DonationRow): StoredDonation {
    const d = fromRow(row);
    const seen = this.touched.get(row.id);
    return seen === undefined ? d : { ...d, lastSeenAt: seen };
  }

  /** Holds a changed donation whole (it supersedes a held last-seen time). */
  private hold(id: string, d: StoredDonation, basis?: Basis | null): void {
    this.held.set(id, d);
    this.touched.delete(id);
    if (basis === undefined) this.basis.delete(id);
    else this.basis.set(id, basis);
  }

  /** Every donation of the environment, as held (reads the whole table: prefer a query where one exists). */
  all(): StoredDonation[] {
    const out: StoredDonation[] = [];
    for (const row of this.db.iterate<DonationRow>(
      // In the order first seen, as the store always listed them (an index would give its own order).
      `${SELECT_DONATION} WHERE environment = ? ORDER BY rowid`,
      this.environment,
    )) {
      const held = this.held.get(row.id);
      out.push(held ?? this.fromStored(row));
    }
    if (this.held.size > 0) {
      const stored = new Set(out.map((d) => d.resource.id));
      for (const d of this.held.values()) if (!stored.has(d.resource.id)) out.push(d);
    }
    return out;
  }

  lastRefreshAt(): string | null {
    if (this.heldRefresh) return this.heldRefresh;
    return (
      this.db.get<{ last_refresh_at: string | null }>(
        'SELECT last_refresh_at FROM donation_refresh WHERE environment = ?',
        this.environment,
      )?.last_refresh_at ?? null
    );
  }

  /**
   * Records one answer from the service. A state not seen before is added to the history; going
   * back (a failed payment returns to INITIATED) is a new entry too, since the history is what was seen.
   */
  record(
    resource: DonationResource,
    row: DonationRowLink | null,
    at: string,
    /**
     * `replaces`: the declined donation it corrects. `sentAt`: for a donation this app sent whose
     * answer was lost, when it was sent (it then counts from then, not from when it was found).
     */
    link: { replaces?: string; sentAt?: string } = {},
  ): StoredDonation {
    const before = this.prior(resource.id);
    const seenUpdate = before?.statusLastUpdated;
    const newUpdate = resource.attributes.state.statusLastUpdated;
    if (before && seenUpdate && newUpdate && newUpdate < seenUpdate) {
      // An answer older than one already recorded (two listings overlapping): it must not read as a step back.
      const full = this.get(resource.id) as StoredDonation;
      const kept = { ...full, lastSeenAt: at, row: full.row ?? row };
      this.hold(resource.id, kept);
      return kept;
    }
    const state = resource.attributes.state.processingStatus;
    const statusLastUpdated = resource.attributes.state.statusLastUpdated ?? null;
    const history = before?.history ?? [];
    const last = history.at(-1);
    // The resource is serialised to compare only when its state and update time are as stored.
    if (
      before?.stored &&
      last?.state === state &&
      seenUpdate === newUpdate &&
      before.stored.text === JSON.stringify(resource) &&
      (row === null || sameRow(row, before.row)) &&
      (link.replaces === undefined || link.replaces === before.replaces)
    ) {
      // Answered exactly as stored: the history, the sums and the record stay; only when it was seen moves.
      this.touched.set(resource.id, at);
      return {
        resource,
        history,
        row: before.row,
        firstSeenAt: before.firstSeenAt,
        lastSeenAt: at,
        resolution: before.resolution,
        replaces: before.replaces,
      };
    }
    const nextHistory =
      last?.state === state ? history : [...history, { state, seenAt: at, statusLastUpdated }];
    const stored: StoredDonation = {
      resource,
      history: nextHistory,
      row: row ?? before?.row ?? null,
      firstSeenAt: before?.firstSeenAt ?? link.sentAt ?? at,
      lastSeenAt: at,
      resolution: before?.resolution ?? null,
      replaces: link.replaces ?? before?.replaces ?? null,
    };
    this.hold(resource.id, stored, before ? (before.stored?.sums ?? undefined) : undefined);
    return stored;
  }

  /**
   * Whether a donation is known and the workspace row it is tied to (null: none), without parsing
   * its resource; undefined when it is not known. What a refresh asks before `record`, which then
   * reuses the same read (from `prefetch` when the page was read ahead).
   */
  known(id: string): { row: DonationRowLink | null } | undefined {
    const held = this.held.get(id);
    if (held) return held;
    if (!this.priors.has(id)) this.priors.set(id, this.readPrior(id));
    return this.priors.get(id) ?? undefined;
  }

  /**
   * Reads ahead, in one query, what `known` and `record` need of the donations of one page from the
   * service (one lookup per donation was a refresh's largest cost after the writes). Each answer is
   * used once, by the next `record` of that donation; a save or the next page drops what is left.
   */
  prefetch(ids: readonly string[]): void {
    this.priors.clear();
    const wanted = ids.filter((id) => !this.held.has(id));
    if (wanted.length === 0) return;
    for (const id of wanted) this.priors.set(id, null);
    for (const values of this.db.rows(
      `${SELECT_PRIOR} WHERE environment = ? AND id IN (SELECT value FROM json_each(?))`,
      this.environment,
      JSON.stringify(wanted),
    )) {
      const row = priorRowOf(values);
      this.priors.set(row.id, this.priorOf(row));
    }
  }

  /**
   * Rows read ahead by `prefetch` or `known` for the `record` that follows (null: not stored). Only
   * used while nothing held supersedes them, and dropped by `save()` and the next `prefetch`.
   */
  private readonly priors = new Map<string, Prior | null>();

  /** What `record` needs of a donation already known: held, read ahead, or read now. */
  private prior(id: string): Prior | undefined {
    const held = this.held.get(id);
    if (held) return { ...held, statusLastUpdated: held.resource.attributes.state.statusLastUpdated };
    const ahead = this.priors.get(id);
    if (ahead === undefined) return this.readPrior(id) ?? undefined;
    this.priors.delete(id);
    return ahead ?? undefined;
  }

  /**
   * What `record` needs of a donation already known, without parsing its resource (the largest
   * part of a row): a refresh records every donation of an upload, so this is its hot path. One read
   * gives what `record` needs, the text to compare the answer with, and the sums' key, so `save()`
   * need not read the row again.
   */
  private readPrior(id: string): Prior | null {
    const row = this.db.get<PriorRow>(
      `${SELECT_PRIOR} WHERE environment = ? AND id = ?`,
      this.environment,
      id,
    );
    return row ? this.priorOf(row) : null;
  }

  private priorOf(row: PriorRow): Prior {
    return {
      history: JSON.parse(row.history) as StoredDonation['history'],
      row: row.row === null ? null : (JSON.parse(row.row) as DonationRowLink),
      firstSeenAt: row.first_seen_at,
      lastSeenAt: this.touched.get(row.id) ?? row.last_seen_at,
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

  resolve(id: string, resolution: Resolution | null): StoredDonation {
    const stored = this.get(id);
    if (!stored)
      throw new DeskFailure('NOT_FOUND', `Donation ${id} is not in the list; list the donations first.`);
    const next = { ...stored, resolution };
    this.hold(id, next);
    return next;
  }

  single(clientRef: string): SingleAttempt | undefined {
    if (this.heldSingles.has(clientRef)) return this.heldSingles.get(clientRef) ?? undefined;
    const row = this.db.get<{ client_ref: string; at: string; donation_id: string | null }>(
      'SELECT client_ref, at, donation_id FROM single_attempt WHERE environment = ? AND client_ref = ?',
      this.environment,
      clientRef,
    );
    return row ? { clientRef: row.client_ref, at: row.at, donationId: row.donation_id } : undefined;
  }

  /** Notes a single donation about to be sent, or the id the service gave it. */
  putSingle(attempt: SingleAttempt): void {
    this.heldSingles.set(attempt.clientRef, attempt);
  }

  dropSingle(clientRef: string): void {
    this.heldSingles.set(clientRef, null);
  }

  markRefreshed(at: string): void {
    this.heldRefresh = at;
  }

  /*
   * Queries answered by SQL over what is saved (call `save()` first to include held changes): for
   * screens and reports that need one page and the totals, never every donation.
   */

  /**
   * Donations of a filter, one page in the order first seen, then in the order recorded (the
   * service's order within what it sent at once), so pages never overlap.
   */
  page(query: DonationQuery): StoredDonation[] {
    const { where, params } = whereOf(this.environment, query);
    const limit = Math.max(0, Math.min(query.limit, 10_000));
    const offset = Math.max(0, query.offset ?? 0);
    const clauses = [where];
    const after = query.after ? [query.after.firstSeenAt, query.after.firstSeenAt, query.after.seq] : [];
    if (query.after) clauses.push('(first_seen_at > ? OR (first_seen_at = ? AND rowid > ?))');
    return this.db
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

  /** Where a page that ended with this donation continues (for `after`). */
  cursorAfter(id: string): PageCursor | null {
    const row = this.db.get<{ first_seen_at: string; seq: number }>(
      'SELECT first_seen_at, rowid AS seq FROM donation WHERE environment = ? AND id = ?',
      this.environment,
      id,
    );
    return row ? { firstSeenAt: row.first_seen_at, seq: Number(row.seq) } : null;
  }

  /** How many donations `page` can give for this filter (counted from the indexes, in disjoint parts). */
  count(query: DonationFilter): number {
    let n = 0;
    for (const part of countParts(this.environment, query)) {
      n += Number(
        this.db.get<{ n: number }>(
          part.sums
            ? `SELECT coalesce(sum(n), 0) AS n FROM donation_sum WHERE ${part.where}`
            : `SELECT count(*) AS n FROM ${part.from ?? 'donation'} WHERE ${part.where}`,
          ...part.params,
        )?.n ?? 0,
      );
    }
    return n;
  }

  /** Open declined donations of a filter (neither replaced nor dismissed): counted from the running sums and the indexes. */
  declinedOpen(query: Omit<DonationFilter, 'status'>): number {
    let n = 0;
    for (const part of countParts(this.environment, { ...query, status: 'DECLINED' })) {
      n += Number(
        this.db.get<{ n: number }>(
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
  totals(
    query: Omit<DonationFilter, 'status'> = {},
  ): Array<{ status: StoredStatus; currencyCode: string; count: number; amount: number }> {
    const sums = new Map<
      string,
      { status: StoredStatus; currencyCode: string; count: number; amount: number }
    >();
    if (!query.bulkIds && !query.oneByOne) {
      // Every donation of the environment: the running sums kept by the database's triggers.
      return this.db
        .all<{ status: StoredStatus; currency: string; n: number; total: number }>(
          `SELECT status, currency, sum(n) AS n, sum(amount) AS total FROM donation_sum
           WHERE environment = ? GROUP BY status, currency HAVING sum(n) > 0 ORDER BY status, currency`,
          this.environment,
        )
        .map((r) => ({
          status: r.status,
          currencyCode: r.currency,
          count: Number(r.n),
          amount: Number(r.total),
        }));
    }
    for (const part of countParts(this.environment, query)) {
      for (const r of this.db.all<{ status: StoredStatus; currency: string; n: number; total: number }>(
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
  bulksWithDonations(bulkIds: string[] | null): string[] {
    const rows = bulkIds
      ? this.db.all<{ bulk_id: string }>(
          `SELECT value AS bulk_id FROM json_each(?) WHERE EXISTS
             (SELECT 1 FROM donation WHERE environment = ? AND bulk_id = value)`,
          JSON.stringify(bulkIds),
          this.environment,
        )
      : this.db.all<{ bulk_id: string }>(
          'SELECT DISTINCT bulk_id FROM donation WHERE environment = ? AND bulk_id IS NOT NULL',
          this.environment,
        );
    return rows.map((r) => r.bulk_id);
  }

  /**
   * Per bulk, status and currency: count and sum, open declined ones, and corrections among them
   * (what the per-upload control totals and the month report need), from the running sums (donation_sum).
   */
  bulkSums(bulkIds: string[]): BulkSum[] {
    if (bulkIds.length === 0) return [];
    return this.db
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
        this.environment,
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
  oneByOneSums(month: string): OneByOneSum[] {
    return this.db
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
        this.environment,
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

  /** Declined donations one of whose reasons has one of these codes (declined ones from the index). */
  declinedWithCodes(codes: readonly string[]): StoredDonation[] {
    return this.db
      .all<DonationRow>(`${SELECT_DONATION} WHERE environment = ? AND status = 'DECLINED'`, this.environment)
      .filter((r) => codes.some((c) => r.resource.includes(JSON.stringify(c))))
      .map((r) => this.held.get(r.id) ?? this.fromStored(r))
      .filter((d) =>
        (d.resource.attributes.state.errors ?? []).some((e) => !!e.code && codes.includes(e.code)),
      );
  }

  /** Donations of no bulk not yet CLEARED or DECLINED: a refresh reads each of them on its own. */
  openSingles(): StoredDonation[] {
    return this.db
      .all<DonationRow>(
        `${SELECT_DONATION} WHERE environment = ? AND bulk_id IS NULL AND status NOT IN ('CLEARED', 'DECLINED')`,
        this.environment,
      )
      .map((r) => this.held.get(r.id) ?? this.fromStored(r));
  }

  /**
   * Every donation sent one by one (of no bulk, marked as a single donation or a correction of this
   * app), with when it counts from: what team mode shares with colleagues. Saved donations only.
   */
  oneByOne(): Array<{ id: string; firstSeenAt: string; kind: 'single' | 'replaces' }> {
    return this.db
      .all<{ id: string; first_seen_at: string; mark: string }>(
        `SELECT id, first_seen_at, mark FROM donation
         WHERE environment = ? AND bulk_id IS NULL AND mark IS NOT NULL ORDER BY first_seen_at`,
        this.environment,
      )
      .map((r) => ({
        id: r.id,
        firstSeenAt: r.first_seen_at,
        kind: r.mark === 'replaces' ? 'replaces' : 'single',
      }));
  }

  /**
   * Every donation, one at a time (for the rare reader that needs them all, such as the causes that
   * cannot receive money); rows whose JSON does not contain `mustContain` are skipped unparsed.
   */
  *each(mustContain?: readonly string[]): Generator<StoredDonation> {
    for (const row of this.db.iterate<DonationRow>(
      `${SELECT_DONATION} WHERE environment = ?`,
      this.environment,
    )) {
      if (mustContain && !mustContain.some((s) => row.resource.includes(s))) continue;
      yield this.held.get(row.id) ?? this.fromStored(row);
    }
  }

  /** The rows already tied to a donation, per bulk: what a refresh must not hand out again. */
  linkedRows(bulkIds: string[]): Array<{ bulkId: string; rowKey: number }> {
    const out: Array<{ bulkId: string; rowKey: number }> = [];
    for (const bulkId of bulkIds) {
      // One JSON array per bulk, built by SQL: a row object per donation cost a refresh ~0.2 s per 100,000.
      const keys = this.db.get<{ keys: string }>(
        `SELECT json_group_array(json_extract(row, '$.rowKey')) AS keys FROM donation
         WHERE environment = ? AND bulk_id = ? AND row IS NOT NULL`,
        this.environment,
        bulkId,
      )?.keys;
      for (const rowKey of JSON.parse(keys ?? '[]') as number[]) out.push({ bulkId, rowKey: Number(rowKey) });
    }
    return out;
  }

  /** Bulks with a donation not yet CLEARED or DECLINED, and every bulk with a donation listed. */
  bulkStates(): { open: string[]; listed: string[] } {
    const rows = this.db.all<{ bulk_id: string; open: number }>(
      `SELECT bulk_id, max(n > 0 AND status NOT IN ('CLEARED', 'DECLINED')) AS open FROM donation_sum
       WHERE environment = ? AND bulk_id != '' GROUP BY bulk_id HAVING sum(n) > 0`,
      this.environment,
    );
    return {
      open: rows.filter((r) => Number(r.open) === 1).map((r) => r.bulk_id),
      listed: rows.map((r) => r.bulk_id),
    };
  }

  /**
   * After a refresh's last save: lets the next process open the database without replaying this
   * one's writes (see DeskDatabase.truncateWal). Skipped, not waited for, while others read.
   */
  settle(): void {
    this.db.truncateWal();
  }

  /** How many changes are held for the next save (changed donations and those only seen again). */
  get pending(): number {
    return this.held.size + this.touched.size;
  }

  /** Durable once resolved; saves are queued so two never interleave. */
  save(): Promise<void> {
    // What was read ahead may be written over by this save (or by another process after it).
    this.priors.clear();
    const run = async (): Promise<void> => {
      const donations = [...this.held.values()];
      const touched = [...this.touched.entries()];
      const singles = [...this.heldSingles.entries()];
      const refresh = this.heldRefresh;
      // Nothing held: no write lock to take, no commit to wait for.
      if (donations.length === 0 && touched.length === 0 && singles.length === 0 && refresh === null) return;
      this.db.transaction(() => {
        const sums = new SumChanges();
        for (const d of donations)
          writeDonation(this.db, this.environment, d, sums, this.basis.get(d.resource.id));
        sums.apply(this.db, this.environment);
        touchDonations(this.db, this.environment, touched);
        for (const [clientRef, attempt] of singles)
          writeSingle(this.db, this.environment, clientRef, attempt);
        if (refresh) writeRefresh(this.db, this.environment, refresh);
      });
      // Only what was written is let go: a change made meanwhile (by a later call) stays held.
      for (const d of donations)
        if (this.held.get(d.resource.id) === d) {
          this.held.delete(d.resource.id);
          this.basis.delete(d.resource.id);
        }
      for (const [id, at] of touched) if (this.touched.get(id) === at) this.touched.delete(id);
      for (const [clientRef, attempt] of singles)
        if (this.heldSingles.get(clientRef) === attempt) this.heldSingles.delete(clientRef);
      if (this.heldRefresh === refresh) this.heldRefresh = null;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

type StoredStatus = StoredDonation['history'][number]['state'];

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

/** A declined donation is open until replaced or dismissed (see isOpenResolution). */
const OPEN = "(resolution_kind IS NULL OR resolution_kind = 'replacing')";

/** Orders with an index behind them (see db/schema.ts); rowid last so pages never overlap. */
const ORDER_BY = {
  firstSeen: 'first_seen_at, rowid',
  // Declined ones neither replaced nor dismissed first: a short list of a long history shows those.
  openFirst: `${OPEN} DESC, first_seen_at, rowid`,
} as const;

function nextMonth(month: string): string {
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

function whereOf(
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
function countParts(
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

interface DonationRow {
  id: string;
  resource: string;
  history: string;
  row: string | null;
  first_seen_at: string;
  last_seen_at: string;
  resolution: string | null;
  replaces: string | null;
}

const SELECT_DONATION =
  'SELECT id, resource, history, row, first_seen_at, last_seen_at, resolution, replaces FROM donation';

/** A stored donation as `record` reads it: its record's columns and what it counts under in the sums. */
type PriorRow = Omit<DonationRow, 'resource'> &
  SumKey & { status_updated: string | null; resource: string; seq: number };

// The columns in the order priorRowOf reads them.
const SELECT_PRIOR = `SELECT id, history, row, first_seen_at, last_seen_at, resolution, replaces, status_updated,
  resource, bulk_id, status, currency, mark, resolution_kind, amount, rowid AS seq FROM donation`;

/** A row of SELECT_PRIOR read as an array (DeskDatabase.rows), in its columns' order. */
function priorRowOf(v: unknown[]): PriorRow {
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
type Prior = Omit<StoredDonation, 'resource'> & {
  statusLastUpdated: string | undefined;
  /** As saved (absent while held): the resource's text and what it counts under in the sums. */
  stored?: { text: string; sums: Basis };
};

function fromRow(row: DonationRow): StoredDonation {
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
interface SumKey {
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
type Basis = SumKey & { seq: number };

/**
 * Changes to the running sums gathered while donations are written, applied once at the end of the
 * same transaction: each donation's old values are read under the write lock, so the sums stay
 * exact whichever process writes.
 */
class SumChanges {
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

function sameRow(a: DonationRowLink, b: DonationRowLink | null): boolean {
  return (
    b !== null &&
    a.workspaceId === b.workspaceId &&
    a.rowKey === b.rowKey &&
    a.rowNumber === b.rowNumber &&
    a.method === b.method
  );
}

/** When donations answered as stored were last seen: one statement per time (a refresh has one). */
function touchDonations(db: DeskDatabase, environment: string, touched: Array<[string, string]>): void {
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

/**
 * Writes a held donation and its change to the running sums. `basis`: what it counted under when
 * `record` read it; the update then only applies if the row still counts so (another process may
 * have written it since), and otherwise the row is read again under the write lock, as for a new one.
 */
function writeDonation(
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
  const metadata = attributes.metadata ?? {};
  const mark =
    d.replaces !== null || metadata[REPLACES_KEY] !== undefined
      ? 'replaces'
      : metadata[SINGLE_KEY] !== undefined
        ? 'single'
        : null;
  const text = JSON.stringify(d.resource);
  const history = JSON.stringify(d.history);
  const rowText = d.row === null ? null : JSON.stringify(d.row);
  const resolution = d.resolution === null ? null : JSON.stringify(d.resolution);
  const after: SumKey = {
    bulk_id: null,
    status: attributes.state.processingStatus,
    currency: attributes.funds.currencyCode,
    mark,
    resolution_kind: d.resolution?.kind ?? null,
    amount: attributes.funds.amount,
  };
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
      text,
      history,
      rowText,
      resolution,
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
  db.run(
    `INSERT INTO donation (environment, id, bulk_id, status, status_updated, amount, currency, first_seen_at,
       last_seen_at, replaces, resolution_kind, resource, history, row, resolution, mark)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (environment, id) DO UPDATE SET status = excluded.status,
       status_updated = excluded.status_updated, amount = excluded.amount, currency = excluded.currency,
       last_seen_at = excluded.last_seen_at,
       replaces = excluded.replaces, resolution_kind = excluded.resolution_kind,
       resource = excluded.resource, history = excluded.history, row = excluded.row,
       resolution = excluded.resolution, mark = excluded.mark`,
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
    text,
    history,
    rowText,
    resolution,
    mark,
  );
  if (before) sums.add(before, -1);
  // The bulk is never rewritten (see above): what was stored stays.
  sums.add({ ...after, bulk_id: before ? before.bulk_id : (attributes.bulkId ?? null) }, 1);
}

function writeSingle(
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

function writeRefresh(db: DeskDatabase, environment: string, at: string | null): void {
  db.run(
    `INSERT INTO donation_refresh (environment, last_refresh_at) VALUES (?, ?)
     ON CONFLICT (environment) DO UPDATE SET last_refresh_at = excluded.last_refresh_at`,
    environment,
    at,
  );
}
