/*
 * Reading donations from the service into the store: the bulks' listings page by page (each tied
 * back to its workspace row), the donations sent one by one read each on its own, and what colleagues
 * closed or sent (through the ledger sharing) taken in after a listing.
 */
import { randomUUID } from 'node:crypto';
import { REPLACES_KEY } from '../../../shared/mapping';
import { count } from '../../../shared/i18n';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { DeskFailure } from '../../../shared/result';
import { markedByThisApp, type DonationStore, type StoredDonation } from './donationStore';
import { listDonations } from './donationLister';
import type { LedgerSummaryView } from './ledgerView';
import { readLedgerGroup } from '../ledger/ledgerStore';
import type { LedgerPart } from '../ledger/ledgerShapes';
import type { ReconcileRuntime } from './reconcileContext';
import { RowMatcher } from './rowMatcher';

/** The emulator's cap; a larger request would only be cut to it, and fewer round trips is kinder. */
export const DEFAULT_PAGE_SIZE = 250;
const SAVE_EVERY_MS = 2_000;
/**
 * Also saved once this many changes are held: written while the pages just read are still in
 * SQLite's cache and before the held records outlive the young generation (a refresh of 100,000
 * with every state changed: 2.3 s instead of 2.6 s, saving every 2 s only). Ten pages rather than
 * forty: held longer, the records reach the old generation, which V8 then lets grow with garbage
 * (a refresh of 300,000 from the emulator: peak 416 MB holding 10,000, 369 MB holding 2,500, same
 * CPU time; see decision 0140).
 */
const SAVE_EVERY_HELD = 2_500;

/** A donation this app made: in one of its bulks, or marked as its correction or single donation. */
export function madeHere(resource: DonationResource, ourBulks: ReadonlySet<string>): boolean {
  const bulkId = resource.attributes.bulkId;
  return (!!bulkId && ourBulks.has(bulkId)) || markedByThisApp(resource);
}

/** The declined donation a listed one says it replaces, when this app has it as declined. */
export function replacedBy(store: DonationStore, id: string | undefined): string | null {
  if (!id) return null;
  const declined = store.get(id);
  return declined?.resource.attributes.state.processingStatus === 'DECLINED' ? id : null;
}

export interface ReadOptions {
  status?: string;
  jobId?: string;
  pageSize?: number;
  /**
   * Keep only donations this app made (of these bulks, or marked as a correction or a single
   * donation of its own), and those already kept: for reading every donation of the account.
   */
  onlyOurs?: ReadonlySet<string>;
}

/** Reads the given bulks (or, with undefined, every donation of the account) into the store, as one job. */
export async function readInto(
  rt: ReconcileRuntime,
  store: DonationStore,
  /** The uploads (summaries will do: an upload's rows are read when its donations are matched). */
  ledger: LedgerSummaryView,
  bulkIds: Array<string | undefined>,
  options: ReadOptions,
): Promise<number> {
  const jobId = options.jobId ?? randomUUID();
  if (rt.running.has(jobId))
    throw new DeskFailure('BUSY', `A listing with job id ${jobId} is already running.`);
  const controller = new AbortController();
  rt.running.set(jobId, controller);
  // An upload's rows are read from the ledger when its donations are first matched, and let go once
  // its bulk has been read: a refresh of the whole history never holds every upload's rows at once.
  const matcher = new RowMatcher(ledger, (bulk) => {
    const part = bulk.group.parts[bulk.intent.part];
    if (part?.rowKeys && part.rowNumbers && part.fingerprints) return part as LedgerPart;
    return readLedgerGroup(rt.ledgerDir, bulk.group.id)?.parts[bulk.intent.part];
  });
  // The rows already tied to a donation of a bulk, claimed as it is read; when reading every
  // donation of the account (no bulk filter), those of every bulk listed, at once.
  const byBulk = bulkIds.every((b) => !!b);
  if (!byBulk) {
    for (const { bulkId, rowKey } of store.linkedRows(store.bulkStates().listed))
      matcher.claim(bulkId, rowKey);
  }
  rt.events.emit('job.status', { jobId, kind: 'donations', status: 'running' });
  let pages = 0;
  let read = 0;
  let lastSave = rt.now();
  const seen: Array<[string, string]> = [];
  try {
    for (const [index, bulkId] of bulkIds.entries()) {
      if (byBulk && bulkId) {
        for (const { rowKey } of store.linkedRows([bulkId])) matcher.claim(bulkId, rowKey);
      }
      await listDonations(
        rt.client,
        {
          ...(bulkId ? { bulkId } : {}),
          ...(options.status ? { status: options.status } : {}),
          pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
        },
        {
          signal: controller.signal,
          // Each page is stored as it comes: nothing of the listing is kept beyond it.
          keep: false,
          distinct: false,
          onPage: async (page) => {
            const at = rt.at();
            // What is stored of the page's donations, in one read rather than one per donation.
            store.prefetch(page.map((resource) => resource.id));
            for (const resource of page) {
              // Known or not, and its row, without reading its whole record (the hot path of a refresh).
              const known = store.known(resource.id);
              if (options.onlyOurs && !known && !madeHere(resource, options.onlyOurs)) continue;
              const replaces = replacedBy(store, resource.attributes.metadata?.[REPLACES_KEY]);
              // A correction whose answer was lost, found now: it was sent when the attempt was written down.
              const pending = replaces ? store.get(replaces)?.resolution : null;
              const sentAt = !known && pending?.kind === 'replacing' ? pending.at : undefined;
              store.record(resource, known?.row ?? matcher.match(resource), at, {
                ...(replaces ? { replaces } : {}),
                ...(sentAt ? { sentAt } : {}),
              });
              // A correction sent in a bulk file closes its declined donation once it is seen.
              if (replaces && store.get(replaces)?.resolution?.kind !== 'replaced') {
                store.resolve(replaces, { kind: 'replaced', at, replacementId: resource.id });
                seen.push([replaces, resource.id]);
              }
            }
            read += page.length;
            pages++;
            // Saved every few seconds or every 10,000 changes rather than per page (each save is a
            // commit that waits for the disk); the end of the job, cancelled or failed included,
            // always saves.
            if (rt.now() - lastSave >= SAVE_EVERY_MS || store.pending >= SAVE_EVERY_HELD) {
              await store.save();
              lastSave = rt.now();
            }
            rt.events.emit('job.progress', {
              jobId,
              kind: 'donations',
              stage: bulkIds.length > 1 ? `bulk ${index + 1} of ${bulkIds.length}` : 'listing',
              done: read,
              total: null,
              message: `${count(read, 'donation')} read, page ${pages}`,
            });
          },
        },
      );
      if (byBulk && bulkId) matcher.forget(bulkId);
    }
    store.markRefreshed(rt.at());
    await store.save();
    store.settle();
    // Team mode: replacements this computer saw in a listing finish the claims this login holds.
    await rt.sharing.finishCorrections(seen);
    await adoptClosedElsewhere(rt, store);
    rt.events.emit('job.status', { jobId, kind: 'donations', status: 'succeeded' });
    return pages;
  } catch (e) {
    await store.save();
    const cancelled = e instanceof DeskFailure && e.code === 'CANCELLED';
    rt.events.emit('job.status', {
      jobId,
      kind: 'donations',
      status: cancelled ? 'cancelled' : 'failed',
      message: e instanceof Error ? e.message : String(e),
    });
    throw e;
  } finally {
    rt.running.delete(jobId);
  }
}

/**
 * Team mode: a declined donation a colleague replaced from another computer is closed here too, by
 * their replacement (which this computer's listings may never bring back: it is in no bulk of
 * ours), and one a colleague dismissed with their reason, so this computer's open count and
 * month-end report agree with the team. Best effort.
 */
export async function adoptClosedElsewhere(rt: ReconcileRuntime, store: DonationStore): Promise<void> {
  const closed = await rt.sharing.closedElsewhere(() =>
    store
      .page({ status: 'DECLINED', limit: 10_000 })
      .filter((d) => !d.resolution)
      .map((d) => d.resource.id),
  );
  const at = rt.at();
  for (const r of closed.replaced) {
    store.resolve(r.donationId, { kind: 'replaced', at, replacementId: r.replacementId, by: r.by });
  }
  for (const d of closed.dismissed) {
    store.resolve(d.donationId, { kind: 'dismissed', at: d.at, reason: d.reason, by: d.by });
  }
  if (closed.replaced.length + closed.dismissed.length > 0) await store.save();
}

/**
 * Team mode: donations sent one by one (single donations, corrections) are shared both ways: this
 * computer's go to the team's ledger where missing, and colleagues' are read from the service into
 * this store, counted in the month they were sent (so every computer's month-end report agrees),
 * and followed like this computer's own. Best effort: with the server away, the next refresh does it.
 */
async function readColleaguesOneByOne(rt: ReconcileRuntime, store: DonationStore): Promise<void> {
  const shared = await rt.sharing.shareOneByOne(() => store.oneByOne());
  let read = 0;
  for (const theirs of shared) {
    if (store.known(theirs.donationId) !== undefined) continue;
    const resource = await rt.client.getDonation(theirs.donationId);
    const at = rt.at();
    const replaces = replacedBy(store, resource.attributes.metadata?.[REPLACES_KEY]);
    store.record(resource, null, at, { sentAt: theirs.sentAt, ...(replaces ? { replaces } : {}) });
    if (replaces && store.get(replaces)?.resolution?.kind !== 'replaced') {
      store.resolve(replaces, { kind: 'replaced', at, replacementId: resource.id, by: theirs.sentBy });
    }
    read++;
  }
  if (read > 0) await store.save();
}

/**
 * Donations made one at a time (single donations, corrections) belong to no bulk, so no bulk
 * listing brings them back: each one not yet final is read on its own.
 */
export async function refreshSingles(rt: ReconcileRuntime, store: DonationStore): Promise<void> {
  await readColleaguesOneByOne(rt, store);
  const singles = store.openSingles();
  for (const single of singles) {
    const resource = await rt.client.getDonation(single.resource.id);
    store.record(resource, single.row, rt.at());
  }
  if (singles.length > 0) await store.save();
}

/** What a refresh must read: bulks with donations not yet final or never listed, and open single donations. */
export function openTargets(
  store: DonationStore,
  ledger: LedgerSummaryView,
  environment: string,
): { bulkIds: string[]; singles: StoredDonation[] } {
  const states = store.bulkStates();
  const listed = new Set(states.listed);
  const open = new Set(states.open);
  // A bulk that created donations but was never listed: all of them are still to be seen.
  for (const b of ledger.bulks) {
    if (b.group.environment !== environment || listed.has(b.bulkId)) continue;
    const created = b.intent.state === 'PROCESSED' || (b.intent.donationRowKeys?.length ?? 0) > 0;
    if (created) open.add(b.bulkId);
  }
  return { bulkIds: [...open], singles: store.openSingles() };
}
