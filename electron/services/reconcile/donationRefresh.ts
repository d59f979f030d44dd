/*
 * A refresh: what may still change is read from the service (bulks with donations not yet final
 * or never listed, and donations sent one by one), on demand or in the background every few minutes;
 * the background refresh holds while the service is in its scheduled maintenance.
 */
import { randomUUID } from 'node:crypto';
import type { ChannelInput } from '../../../shared/contract';
import { openTargets, readInto, refreshSingles } from './donationReading';
import { listing, type ListResult } from './donationListing';
import { readLedgerSummaryView } from './ledgerView';
import { partialTotals } from './partialTotals';
import type { ReconcileRuntime } from './reconcileContext';
import { replacementsInUploads } from './replacements';

export async function refreshDonations(
  rt: ReconcileRuntime,
  input: ChannelInput<'donations.refresh'>,
): Promise<ListResult> {
  // Team mode: what this computer sent goes to the shared ledger first, and the team's is read anew.
  await rt.sharing.publishBulks(async () => {
    const service = await rt.environments.describe();
    const local = await readLedgerSummaryView(rt.ledgerDir);
    return {
      local,
      environment: service.id,
      partials: () => partialTotals(rt.ledgerDir, local, service.id),
    };
  });
  const { environment, store, ledger } = await rt.context();
  const { bulkIds } = openTargets(store, ledger, environment);
  await refreshSingles(rt, store);
  const pages = await readInto(rt, store, await readLedgerSummaryView(rt.ledgerDir), bulkIds, {
    ...(input.jobId ? { jobId: input.jobId } : {}),
    ...(input.pageSize ? { pageSize: input.pageSize } : {}),
  });
  // The store holds only this environment's donations: all of them are the answer.
  const after = await readLedgerSummaryView(rt.ledgerDir);
  return listing(rt, store, { bulkIds: null }, pages, replacementsInUploads(after, environment), {
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
  });
}

export interface BackgroundRefresh {
  /** A background refresh now (after the one in flight, if any), whatever the timer; none once closed. */
  now(): Promise<void>;
  /** Stops the timer, aborts the listings running and waits for a refresh in flight. */
  close(): Promise<void>;
}

/** Refreshes open donations every `everyMs` (0: never), only when something is open. */
export function startBackgroundRefresh(
  rt: ReconcileRuntime,
  everyMs: number,
  refresh: (input: ChannelInput<'donations.refresh'>) => Promise<unknown>,
): BackgroundRefresh {
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  const run = (): Promise<void> => {
    inFlight ??= tick().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const schedule = (): void => {
    if (closed || !everyMs) return;
    timer = setTimeout(() => {
      timer = null;
      void run().then(schedule);
    }, everyMs);
    timer.unref();
  };
  const tick = async (): Promise<void> => {
    // The service's scheduled maintenance: no call until it ends (or a look elsewhere finds it back).
    if (rt.environments.maintenance.current()) return;
    try {
      const { environment, store, ledger } = await rt.context();
      const targets = openTargets(store, ledger, environment);
      // Nothing open: no call to the service, and no job events for the screens to show.
      if (targets.bulkIds.length === 0 && targets.singles.length === 0) return;
      // Nobody reads the answer of a background refresh: only its total comes back.
      await refresh({ jobId: `background-${randomUUID()}`, limit: 0 });
    } catch {
      // Offline, or the service refused: the job.status event said so; the next tick tries again.
    }
  };
  schedule();
  return {
    now: async () => {
      if (closed) return;
      // One in flight may have begun before what asks for this one: another follows it.
      if (inFlight) await inFlight;
      if (!closed) await run();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const controller of rt.running.values()) controller.abort();
      await inFlight;
    },
  };
}
