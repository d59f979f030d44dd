import { basename, dirname } from 'node:path';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import type { Resolution } from '../../../shared/contract/reconcileChannels';
import { DeskFailure } from '../../../shared/result';
import { databaseOf, type DeskDatabase } from '../db/deskDatabase';
import type { DonationFilter, DonationQuery, PageCursor } from './donationFilters';
import {
  bulkStates,
  count,
  cursorAfter,
  linkedRows,
  oneByOne,
  page,
  type DonationScope,
} from './donationPaging';
import {
  fromRow,
  priorOf,
  priorRowOf,
  readPrior,
  sameRow,
  SELECT_DONATION,
  SELECT_PRIOR,
  type Basis,
  type DonationRow,
  type Prior,
} from './donationRows';
import {
  bulkSums,
  bulksWithDonations,
  declinedOpen,
  oneByOneSums,
  totals,
  type BulkSum,
  type OneByOneSum,
} from './donationSums';
import {
  insertNewDonations,
  SumChanges,
  touchDonations,
  writeDonation,
  writeRefresh,
  writeSingle,
} from './donationWrites';
import { importLegacyDonationFile } from './legacyDonationFile';
import type { DonationRowLink, SingleAttempt, StoredDonation, StoredStatus } from './storedDonation';

// The store's public types and functions, wherever they are defined.
export type { DonationFilter, DonationQuery, PageCursor } from './donationFilters';
export type { BulkSum, OneByOneSum } from './donationSums';
export {
  FINAL_DONATION_STATES,
  markedByThisApp,
  type DonationRowLink,
  type SingleAttempt,
  type StoredDonation,
} from './storedDonation';

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
    await importLegacyDonationFile(db, environment, path);
    return new DonationStore(db, environment);
  }

  /** What the queries work on: this store's database and environment. */
  private get scope(): DonationScope {
    return { db: this.db, environment: this.environment };
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
    // Not stored when read (null): `save()` then inserts it without reading it first.
    this.hold(resource.id, stored, before ? (before.stored?.sums ?? undefined) : null);
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
      this.priors.set(row.id, priorOf(row, this.touched.get(row.id)));
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

  /** What `record` needs of a donation already known, read now (see readPrior). */
  private readPrior(id: string): Prior | null {
    return readPrior(this.scope, id, this.touched);
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
   * screens and reports that need one page and the totals, never every donation (donationPaging.ts,
   * donationSums.ts).
   */

  /**
   * Donations of a filter, one page in the order first seen, then in the order recorded (the
   * service's order within what it sent at once), so pages never overlap.
   */
  page(query: DonationQuery): StoredDonation[] {
    return page(this.scope, query);
  }

  /** Where a page that ended with this donation continues (for `after`). */
  cursorAfter(id: string): PageCursor | null {
    return cursorAfter(this.scope, id);
  }

  /** How many donations `page` can give for this filter. */
  count(query: DonationFilter): number {
    return count(this.scope, query);
  }

  /** Open declined donations of a filter (neither replaced nor dismissed). */
  declinedOpen(query: Omit<DonationFilter, 'status'>): number {
    return declinedOpen(this.scope, query);
  }

  /** Count and sum (minor units) per status and currency. */
  totals(
    query: Omit<DonationFilter, 'status'> = {},
  ): Array<{ status: StoredStatus; currencyCode: string; count: number; amount: number }> {
    return totals(this.scope, query);
  }

  /** Bulk ids that have donations, among the given ones (null: any). */
  bulksWithDonations(bulkIds: string[] | null): string[] {
    return bulksWithDonations(this.scope, bulkIds);
  }

  /** Per bulk, status and currency: count and sum, open declined ones, and corrections among them. */
  bulkSums(bulkIds: string[]): BulkSum[] {
    return bulkSums(this.scope, bulkIds);
  }

  /** Donations this app created one at a time first recorded in the given UTC month (YYYY-MM). */
  oneByOneSums(month: string): OneByOneSum[] {
    return oneByOneSums(this.scope, month);
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

  /** Every donation sent one by one, with when it counts from: what team mode shares with colleagues. */
  oneByOne(): Array<{ id: string; firstSeenAt: string; kind: 'single' | 'replaces' }> {
    return oneByOne(this.scope);
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
    return linkedRows(this.scope, bulkIds);
  }

  /** Bulks with a donation not yet CLEARED or DECLINED, and every bulk with a donation listed. */
  bulkStates(): { open: string[]; listed: string[] } {
    return bulkStates(this.scope);
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
        // Those not stored when read go in a few statements per run of them; the rest one at a
        // time, all in the order held (the order recorded, which new rows' rowids keep).
        let fresh: StoredDonation[] = [];
        for (const d of donations) {
          const basis = this.basis.get(d.resource.id);
          if (basis === null) {
            fresh.push(d);
            continue;
          }
          if (fresh.length > 0) insertNewDonations(this.db, this.environment, fresh, sums);
          fresh = [];
          writeDonation(this.db, this.environment, d, sums, basis);
        }
        if (fresh.length > 0) insertNewDonations(this.db, this.environment, fresh, sums);
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
