import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Catalogue, buildCatalogue } from './catalogue';
import { VirtualClock } from './clock';
import type { RecipientCheck } from './directory';
import type { DonationInput } from './donationRules';
import { type DonationRecord, DonationStore } from './donations';
import { FaultInjector, type FaultSettings, defaultFaults } from './faults';
import { type TimelineEntry, planTimeline } from './lifecycle';
import { type LocationState, emptyLocationState } from './locationStore';
import { AppendLog, BlobStore, readFileIfExists, writeFileAtomic } from './persistence';
import { uuidFrom } from './random';
import type { BulkRecord } from './bulkTypes';

const STATE_VERSION = 2;

/** One line of donations.log: [id counter, id, seq, createdAt, input, bulkId, timeline]. */
type LoggedDonation = [number, string, number, number, DonationInput, string | null, TimelineEntry[]];

interface PersistedState {
  version: number;
  seed: number;
  signingKey: string;
  uploadKey: string;
  idCounter: number;
  seq: number;
  clockOffsetMs: number;
  catalogueAnchorMs: number;
  tokenGeneration: number;
  faults: FaultSettings;
  /** Version 1 kept donations in the snapshot; they move to the log on the first save. */
  donations?: Array<[string, number, number, DonationInput, string | null, TimelineEntry[]]>;
  bulks: BulkRecord[];
  locations: LocationState;
}

export interface CoreOptions {
  seed: number;
  timeScale: number;
  /** When a well-shaped recipient id that is not in the directory is found out (see directory.ts). */
  recipientCheck?: RecipientCheck;
  dataDir?: string;
  clientId: string;
  clientSecret: string;
  quiet?: boolean;
}

/** Everything the service knows, plus the virtual clock that drives it. */
export class Core {
  readonly seed: number;
  readonly clock: VirtualClock;
  readonly catalogue: Catalogue;
  readonly donations = new DonationStore();
  readonly bulks = new Map<string, BulkRecord>();
  readonly blobs: BlobStore;
  readonly faults: FaultInjector;
  locations: LocationState = emptyLocationState();
  signingKey: string;
  uploadKey: string;
  tokenGeneration = 0;
  catalogueAnchorMs: number;
  budgetUsed: Record<string, number> = {};
  private idCounter = 0;
  private seq = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  private readonly statePath: string | undefined;
  private readonly donationLog: AppendLog | undefined;
  /** Parsed donations of validated bulks, kept between validation and processing. */
  readonly parsedBulks = new Map<string, DonationInput[]>();
  /** Bulk step runner, installed by the bulk module to keep this file free of its details. */
  runBulkStep: (bulk: BulkRecord) => void = () => undefined;

  constructor(readonly options: CoreOptions) {
    this.seed = options.seed;
    this.statePath = options.dataDir ? join(options.dataDir, 'state.json') : undefined;
    this.donationLog = options.dataDir ? new AppendLog(join(options.dataDir, 'donations.log')) : undefined;
    this.blobs = new BlobStore(options.dataDir);
    const saved = this.statePath ? readFileIfExists(this.statePath) : undefined;
    let persisted: PersistedState | undefined;
    if (saved) {
      const parsed = JSON.parse(saved.toString('utf8')) as PersistedState;
      if (parsed.version !== STATE_VERSION && parsed.version !== 1) {
        throw new Error(`Unsupported emulator state version ${parsed.version}`);
      }
      if (parsed.seed !== options.seed) {
        throw new Error(
          `The data dir was created with seed ${parsed.seed}; start with --seed ${parsed.seed} or another dir.`,
        );
      }
      persisted = parsed;
    }
    this.clock = new VirtualClock(options.timeScale, Date.now() + (persisted?.clockOffsetMs ?? 0));
    this.catalogueAnchorMs = persisted?.catalogueAnchorMs ?? this.clock.nowMs();
    this.catalogue = buildCatalogue(this.seed);
    this.signingKey = persisted?.signingKey ?? randomBytes(32).toString('hex');
    this.uploadKey = persisted?.uploadKey ?? randomBytes(32).toString('hex');
    // Settings added in later versions take their defaults when an older state file is loaded.
    this.faults = new FaultInjector({ ...defaultFaults(this.seed), ...persisted?.faults });
    if (persisted) {
      this.idCounter = persisted.idCounter;
      this.seq = persisted.seq;
      this.tokenGeneration = persisted.tokenGeneration;
      for (const bulk of persisted.bulks) this.bulks.set(bulk.id, bulk);
      this.locations = persisted.locations;
    }
    const logged = (this.donationLog?.read() ?? []) as LoggedDonation[];
    if (persisted?.version === 1 && persisted.donations) {
      for (const [id, seq, createdAt, input, bulkId, timeline] of persisted.donations) {
        const entry: LoggedDonation = [persisted.idCounter, id, seq, createdAt, input, bulkId, timeline];
        logged.push(entry);
        this.donationLog?.append(entry);
      }
      this.markDirty();
    }
    // The log may run ahead of the snapshot after a crash; counters must never reuse its ids.
    for (const entry of logged) {
      const [counter, id, seq, createdAt, input, bulkId, timeline] = entry;
      this.donations.add({ id, seq, createdAt, input, bulkId, timeline });
      this.idCounter = Math.max(this.idCounter, counter);
      this.seq = Math.max(this.seq, seq);
      if (timeline[timeline.length - 1]?.status !== 'DECLINED') {
        const key = budgetKey(input.funds.currencyCode, createdAt);
        this.budgetUsed[key] = (this.budgetUsed[key] ?? 0) + input.funds.amount;
      }
    }
  }

  nowMs(): number {
    return this.clock.nowMs();
  }

  now(): Date {
    return this.clock.now();
  }

  nextId(kind: string): string {
    this.idCounter += 1;
    return uuidFrom(this.seed, kind, this.idCounter);
  }

  createDonation(input: DonationInput, atMs: number, bulkId: string | null): DonationRecord {
    const id = this.nextId('donation');
    this.seq += 1;
    const timeline = planTimeline(id, input, atMs, {
      seed: this.seed,
      catalogue: this.catalogue,
      paymentFailureRate: this.faults.settings.paymentFailureRate,
      reserveBudget: (currency, amount, at) => this.reserveBudget(currency, amount, at),
    });
    const record: DonationRecord = { id, seq: this.seq, createdAt: atMs, input, bulkId, timeline };
    this.donations.add(record);
    this.donationLog?.append([
      this.idCounter,
      id,
      this.seq,
      atMs,
      input,
      bulkId,
      timeline,
    ] satisfies LoggedDonation);
    this.markDirty();
    return record;
  }

  /** The program budget is per currency and per calendar month (UTC) of the virtual clock. */
  private reserveBudget(currency: string, amount: number, atMs: number): boolean {
    const key = budgetKey(currency, atMs);
    const used = this.budgetUsed[key] ?? 0;
    if (used + amount > this.faults.settings.budgetMinorUnits) return false;
    this.budgetUsed[key] = used + amount;
    return true;
  }

  /** Runs every bulk step whose virtual time has come, oldest first, at its own scheduled time. */
  runDue(): void {
    const now = this.nowMs();
    for (;;) {
      let next: BulkRecord | undefined;
      for (const bulk of this.bulks.values()) {
        if (
          bulk.nextStepAt !== null &&
          bulk.nextStepAt <= now &&
          (!next || bulk.nextStepAt < (next.nextStepAt ?? 0))
        ) {
          next = bulk;
        }
      }
      if (!next) return;
      try {
        this.runBulkStep(next);
      } catch (error) {
        // One broken bulk must not make every later request fail: park it in ERROR and go on.
        if (!this.options.quiet) console.error(`emulator: bulk ${next.id} step failed`, error);
        next.status = 'ERROR';
        next.updatedAt = next.nextStepAt ?? now;
        next.nextStepAt = null;
        next.error = {
          form: 'file',
          detail: 'The emulator failed to process this file.',
          fileName: 'donations.gz',
        };
      }
      this.markDirty();
    }
  }

  advance(seconds: number): void {
    this.clock.advance(seconds);
    this.runDue();
    this.markDirty();
  }

  reset(): void {
    this.donations.clear();
    this.bulks.clear();
    this.parsedBulks.clear();
    this.blobs.clear();
    this.locations = emptyLocationState();
    this.budgetUsed = {};
    this.faults.update(defaultFaults(this.seed));
    this.donationLog?.truncate();
    this.markDirty();
  }

  markDirty(): void {
    if (!this.statePath || this.saveTimer) return;
    // Coalesce bursts of changes into one snapshot; close() flushes whatever is pending.
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      // A failed background save (disk full, folder removed) must not bring down the host process,
      // which may be the app's main process; report it and try again later.
      try {
        this.save();
      } catch (error) {
        if (!this.options.quiet) console.error(`emulator: could not save state: ${(error as Error).message}`);
        this.saveTimer = setTimeout(() => {
          this.saveTimer = undefined;
          this.markDirty();
        }, 5000);
      }
    }, 200);
  }

  save(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
    }
    if (!this.statePath) return;
    // Log first: the snapshot's counters and bulk states may then refer only to logged donations.
    this.donationLog?.flush();
    const state: PersistedState = {
      version: STATE_VERSION,
      seed: this.seed,
      signingKey: this.signingKey,
      uploadKey: this.uploadKey,
      idCounter: this.idCounter,
      seq: this.seq,
      clockOffsetMs: this.clock.offsetMs(),
      catalogueAnchorMs: this.catalogueAnchorMs,
      tokenGeneration: this.tokenGeneration,
      faults: this.faults.settings,
      bulks: [...this.bulks.values()],
      locations: this.locations,
    };
    writeFileAtomic(this.statePath, JSON.stringify(state));
  }
}

/** The program budget is tracked per currency and per calendar month (UTC) of the virtual clock. */
function budgetKey(currency: string, atMs: number): string {
  const date = new Date(atMs);
  return `${date.getUTCFullYear()}-${date.getUTCMonth() + 1}:${currency}`;
}
