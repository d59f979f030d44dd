import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ChannelInput, ChannelName, ChannelResponse, Handler } from '../../../shared/contract';
import type { reconcileChannels } from '../../../shared/contract/reconcileChannels';
import { DeskFailure } from '../../../shared/result';
import { ServiceClient, type RetryOptions } from '../api/serviceClient';
import type { Environments } from '../environments';
import type { EventBus } from '../eventBus';
import { DonationStore, FINAL_DONATION_STATES, type StoredDonation } from './donationStore';
import { listDonations } from './donationLister';
import { correctDeclined } from './corrections';
import { monthReport } from './monthReport';
import { readLedgerView, type LedgerView } from './ledgerView';
import { RowMatcher } from './rowMatcher';
import { donationView, statusTotals, uploadControls } from './views';

type ReconcileChannel = keyof typeof reconcileChannels & ChannelName;

export interface ReconcileServices {
  handlers: { [C in ReconcileChannel]: Handler<C> };
  /** Stops the background refresh and waits for one in flight. */
  close(): Promise<void>;
}

export interface ReconcileDeps {
  dataDir: string;
  environments: Environments;
  events: EventBus;
  fetchImpl?: typeof fetch;
  retry?: Partial<RetryOptions>;
  now?: () => number;
  /** Refresh open donations in the background this often; 0 or absent: only on demand. */
  backgroundMs?: number;
}

/** The emulator's cap; a larger request would only be cut to it, and fewer round trips is kinder. */
const DEFAULT_PAGE_SIZE = 250;
const SAVE_EVERY_MS = 2_000;

type ListResult = ChannelResponse<'donations.list'>;

/**
 * Reconciliation: the donations the uploads created, read page by page from the service, tied back
 * to their workspace rows, kept with the states seen over time, and totalled per status and per upload.
 */
export function createReconcileServices(deps: ReconcileDeps): ReconcileServices {
  const now = deps.now ?? Date.now;
  const client = new ServiceClient(() => deps.environments.resolve(), {
    ...(deps.fetchImpl ? { fetchImpl: deps.fetchImpl } : {}),
    ...(deps.retry ? { retry: deps.retry } : {}),
  });
  const ledgerDir = join(deps.dataDir, 'uploads');
  const stores = new Map<string, Promise<DonationStore>>();
  const running = new Map<string, AbortController>();

  const storeFor = (environment: string): Promise<DonationStore> => {
    let store = stores.get(environment);
    if (!store) {
      store = DonationStore.open(join(deps.dataDir, 'reconcile', `donations-${environment}.json`));
      store.catch(() => stores.delete(environment));
      stores.set(environment, store);
    }
    return store;
  };

  /** Reads the given bulks (or, with null, every donation of the account) into the store, as one job. */
  const fetchInto = async (
    store: DonationStore,
    ledger: LedgerView,
    bulkIds: Array<string | undefined>,
    options: { status?: string; jobId?: string; pageSize?: number },
  ): Promise<number> => {
    const jobId = options.jobId ?? randomUUID();
    if (running.has(jobId))
      throw new DeskFailure('BUSY', `A listing with job id ${jobId} is already running.`);
    const controller = new AbortController();
    running.set(jobId, controller);
    const matcher = new RowMatcher(ledger);
    for (const d of store.all()) {
      const bulkId = d.resource.attributes.bulkId;
      if (d.row && bulkId) matcher.claim(bulkId, d.row.rowKey);
    }
    deps.events.emit('job.status', { jobId, kind: 'donations', status: 'running' });
    let pages = 0;
    let read = 0;
    let lastSave = now();
    try {
      for (const [index, bulkId] of bulkIds.entries()) {
        await listDonations(
          client,
          {
            ...(bulkId ? { bulkId } : {}),
            ...(options.status ? { status: options.status } : {}),
            pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
          },
          {
            signal: controller.signal,
            onPage: async (page) => {
              const at = new Date(now()).toISOString();
              for (const resource of page) {
                const known = store.get(resource.id);
                store.record(resource, known?.row ?? matcher.match(resource), at);
              }
              read += page.length;
              pages++;
              // Saved every few seconds rather than per page (the whole file is rewritten each time);
              // the end of the job, cancelled or failed included, always saves.
              if (now() - lastSave >= SAVE_EVERY_MS) {
                await store.save();
                lastSave = now();
              }
              deps.events.emit('job.progress', {
                jobId,
                kind: 'donations',
                stage: bulkIds.length > 1 ? `bulk ${index + 1} of ${bulkIds.length}` : 'listing',
                done: read,
                total: null,
                message: `${read} donation(s) read, page ${pages}`,
              });
            },
          },
        );
      }
      store.markRefreshed(new Date(now()).toISOString());
      await store.save();
      deps.events.emit('job.status', { jobId, kind: 'donations', status: 'succeeded' });
      return pages;
    } catch (e) {
      await store.save();
      const cancelled = e instanceof DeskFailure && e.code === 'CANCELLED';
      deps.events.emit('job.status', {
        jobId,
        kind: 'donations',
        status: cancelled ? 'cancelled' : 'failed',
        message: e instanceof Error ? e.message : String(e),
      });
      throw e;
    } finally {
      running.delete(jobId);
    }
  };

  const context = async (): Promise<{ environment: string; store: DonationStore; ledger: LedgerView }> => {
    const environment = (await deps.environments.describe()).id;
    const [store, ledger] = await Promise.all([storeFor(environment), readLedgerView(ledgerDir)]);
    return { environment, store, ledger };
  };

  const ledgerBulkIds = (ledger: LedgerView, environment: string): string[] =>
    ledger.bulks.filter((b) => b.group.environment === environment).map((b) => b.bulkId);

  const listing = (
    store: DonationStore,
    filter: { bulkIds: string[] | null; status?: string },
    pages: number,
  ): ListResult => {
    const bulkSet = filter.bulkIds ? new Set(filter.bulkIds) : null;
    const all = store.all();
    const ofBulks = new Set(
      all
        .filter((d) => !bulkSet || bulkSet.has(d.resource.attributes.bulkId ?? ''))
        .map((d) => d.resource.id),
    );
    // A correction belongs to no bulk, but it is part of the story of the bulk whose donation it replaces.
    const donations = all
      .filter((d) => ofBulks.has(d.resource.id) || (d.replaces !== null && ofBulks.has(d.replaces)))
      .filter((d) => !filter.status || d.resource.attributes.state.processingStatus === filter.status)
      .map(donationView);
    return { donations, lastRefreshAt: store.lastRefreshAt(), pages };
  };

  const list = async (input: ChannelInput<'donations.list'>): Promise<ListResult> => {
    const { environment, store, ledger } = await context();
    // An empty list asks for every donation of the account (no bulk filter); absent means the ledger's.
    const bulkIds = input.bulkIds ?? ledgerBulkIds(ledger, environment);
    const everything = input.bulkIds !== undefined && input.bulkIds.length === 0;
    const filter = {
      bulkIds: everything ? null : bulkIds,
      ...(input.status ? { status: input.status } : {}),
    };
    if (input.cached) return listing(store, filter, 0);
    const pages = await fetchInto(store, ledger, everything ? [undefined] : bulkIds, {
      ...(input.status ? { status: input.status } : {}),
      ...(input.jobId ? { jobId: input.jobId } : {}),
      ...(input.pageSize ? { pageSize: input.pageSize } : {}),
    });
    return listing(store, filter, pages);
  };

  /** What a refresh must read: bulks with donations not yet final or never listed, and open single donations. */
  const openTargets = (
    store: DonationStore,
    ledger: LedgerView,
    environment: string,
  ): { bulkIds: string[]; singles: StoredDonation[] } => {
    const listed = new Set(store.all().map((d) => d.resource.attributes.bulkId ?? ''));
    const open = new Set<string>();
    const singles: StoredDonation[] = [];
    for (const d of store.all()) {
      const bulkId = d.resource.attributes.bulkId;
      if (FINAL_DONATION_STATES.has(d.resource.attributes.state.processingStatus)) continue;
      if (bulkId) open.add(bulkId);
      else singles.push(d);
    }
    // A bulk that created donations but was never listed: all of them are still to be seen.
    for (const b of ledger.bulks) {
      if (b.group.environment !== environment || listed.has(b.bulkId)) continue;
      const created = b.intent.state === 'PROCESSED' || (b.intent.donationRowKeys?.length ?? 0) > 0;
      if (created) open.add(b.bulkId);
    }
    return { bulkIds: [...open], singles };
  };

  const refresh = async (input: ChannelInput<'donations.refresh'>): Promise<ListResult> => {
    const { environment, store, ledger } = await context();
    const { bulkIds, singles } = openTargets(store, ledger, environment);
    // Single donations (corrections) belong to no bulk: each open one is read on its own.
    for (const single of singles) {
      const resource = await client.getDonation(single.resource.id);
      store.record(resource, single.row, new Date(now()).toISOString());
    }
    if (singles.length > 0) await store.save();
    const pages = await fetchInto(store, ledger, bulkIds, {
      ...(input.jobId ? { jobId: input.jobId } : {}),
      ...(input.pageSize ? { pageSize: input.pageSize } : {}),
    });
    // The store holds only this environment's donations: all of them are the answer.
    return listing(store, { bulkIds: null }, pages);
  };

  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  const schedule = (): void => {
    if (closed || !deps.backgroundMs) return;
    timer = setTimeout(() => {
      timer = null;
      inFlight = backgroundTick().finally(() => {
        inFlight = null;
        schedule();
      });
    }, deps.backgroundMs);
    timer.unref();
  };
  const backgroundTick = async (): Promise<void> => {
    try {
      const { environment, store, ledger } = await context();
      const targets = openTargets(store, ledger, environment);
      // Nothing open: no call to the service, and no job events for the screens to show.
      if (targets.bulkIds.length === 0 && targets.singles.length === 0) return;
      await refresh({ jobId: `background-${randomUUID()}` });
    } catch {
      // Offline, or the service refused: the job.status event said so; the next tick tries again.
    }
  };
  schedule();

  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const controller of running.values()) controller.abort();
      await inFlight;
    },
    handlers: {
      'donations.list': (input) => list(input),
      'donations.refresh': (input) => refresh(input),
      'donations.cancel': ({ jobId }) => {
        const controller = running.get(jobId);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      'donations.correct': async (input) => {
        const { store } = await context();
        const { declined, replacement } = await correctDeclined(client, store, input, () =>
          new Date(now()).toISOString(),
        );
        return { declined: donationView(declined), replacement: donationView(replacement) };
      },
      'donations.dismiss': async ({ donationId, reason }) => {
        const { store } = await context();
        const stored = store.get(donationId);
        if (!stored)
          throw new DeskFailure(
            'NOT_FOUND',
            `Donation ${donationId} is not in the list; list the donations first.`,
          );
        if (stored.resource.attributes.state.processingStatus !== 'DECLINED') {
          throw new DeskFailure('NOT_DECLINED', 'Only a declined donation can be dismissed.');
        }
        if (stored.resolution?.kind === 'replaced') {
          throw new DeskFailure(
            'ALREADY_RESOLVED',
            `This donation was already replaced by ${stored.resolution.replacementId}.`,
          );
        }
        const dismissed = store.resolve(donationId, {
          kind: 'dismissed',
          at: new Date(now()).toISOString(),
          reason,
        });
        await store.save();
        return donationView(dismissed);
      },
      'donations.report': async ({ month, refresh: refreshFirst }) => {
        // Refresh reads every bulk never listed and every donation not yet final (singles too):
        // the rest cannot have changed.
        if (refreshFirst) await refresh({});
        const { environment, store, ledger } = await context();
        return monthReport(month, environment, ledger, store.all(), {
          generatedAt: new Date(now()).toISOString(),
          lastRefreshAt: store.lastRefreshAt(),
        });
      },
      'donations.summary': async () => {
        const { environment, store, ledger } = await context();
        const donations = store.all();
        return {
          byStatus: statusTotals(donations),
          uploads: uploadControls(ledger, environment, donations),
          lastRefreshAt: store.lastRefreshAt(),
        };
      },
    },
  };
}
