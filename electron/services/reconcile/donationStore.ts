import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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
import { writeFileAtomic } from '../storage/atomicFile';

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
 * seen in (with when it was first seen so), and the workspace row it came from. One JSON file per
 * environment, rewritten atomically, so a crash leaves the previous whole picture.
 */
export class DonationStore {
  private readonly donations = new Map<string, StoredDonation>();
  private readonly singles = new Map<string, SingleAttempt>();
  private lastRefresh: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly path: string) {}

  static async open(path: string): Promise<DonationStore> {
    const store = new DonationStore(path);
    const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (text !== null) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const parsed = storeFileSchema.safeParse(json);
      if (!parsed.success) {
        // Refuse rather than overwrite: the file may hold the only record of states seen earlier.
        throw new DeskFailure(
          'STORE_UNREADABLE',
          `The donation store ${path} could not be read. It was left untouched; move it aside to start afresh.`,
        );
      }
      store.lastRefresh = parsed.data.lastRefreshAt;
      for (const d of parsed.data.donations) store.donations.set(d.resource.id, d);
      for (const a of parsed.data.singles) store.singles.set(a.clientRef, a);
    }
    return store;
  }

  get(id: string): StoredDonation | undefined {
    return this.donations.get(id);
  }

  all(): StoredDonation[] {
    return [...this.donations.values()];
  }

  lastRefreshAt(): string | null {
    return this.lastRefresh;
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
    const before = this.donations.get(resource.id);
    const seenUpdate = before?.resource.attributes.state.statusLastUpdated;
    const newUpdate = resource.attributes.state.statusLastUpdated;
    if (before && seenUpdate && newUpdate && newUpdate < seenUpdate) {
      // An answer older than one already recorded (two listings overlapping): it must not read as a step back.
      const kept = { ...before, lastSeenAt: at, row: before.row ?? row };
      this.donations.set(resource.id, kept);
      return kept;
    }
    const state = resource.attributes.state.processingStatus;
    const statusLastUpdated = resource.attributes.state.statusLastUpdated ?? null;
    const history = before?.history ?? [];
    const last = history.at(-1);
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
    this.donations.set(resource.id, stored);
    return stored;
  }

  resolve(id: string, resolution: Resolution | null): StoredDonation {
    const stored = this.donations.get(id);
    if (!stored)
      throw new DeskFailure('NOT_FOUND', `Donation ${id} is not in the list; list the donations first.`);
    const next = { ...stored, resolution };
    this.donations.set(id, next);
    return next;
  }

  single(clientRef: string): SingleAttempt | undefined {
    return this.singles.get(clientRef);
  }

  /** Notes a single donation about to be sent, or the id the service gave it. */
  putSingle(attempt: SingleAttempt): void {
    this.singles.set(attempt.clientRef, attempt);
  }

  dropSingle(clientRef: string): void {
    this.singles.delete(clientRef);
  }

  markRefreshed(at: string): void {
    this.lastRefresh = at;
  }

  /** Durable once resolved; saves are queued so two never interleave. */
  save(): Promise<void> {
    const run = async (): Promise<void> => {
      await mkdir(dirname(this.path), { recursive: true });
      const file = {
        version: 1,
        lastRefreshAt: this.lastRefresh,
        donations: this.all(),
        singles: [...this.singles.values()],
      };
      await writeFileAtomic(this.path, JSON.stringify(file));
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
