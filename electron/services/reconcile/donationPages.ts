/*
 * What the Reconcile screen and the month-end report read from the store: one page of the uploads'
 * donations with its counts, the totals per status and per upload, and a month's report.
 */
import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { DonationFilter } from './donationStore';
import { elsewhereOf } from './donationListing';
import { monthReport } from './monthReport';
import { ledgerBulkIds, type ReconcileRuntime } from './reconcileContext';
import { replacementsInUploads } from './replacements';
import { donationView, uploadControls } from './views';

/** donations.page: one page of every upload's donations (or one upload's, or those sent one by one). */
export async function donationsPage(
  rt: ReconcileRuntime,
  input: ChannelInput<'donations.page'>,
): Promise<ChannelResponse<'donations.page'>> {
  const { environment, store, ledger } = await rt.context();
  const ours = ledgerBulkIds(ledger, environment);
  // The screen's every upload: the ledger's bulks, what was sent one by one, and corrections.
  const every: DonationFilter = { bulkIds: ours, singles: true, corrections: true };
  const scope: DonationFilter =
    input.bulk === undefined
      ? every
      : input.bulk === null
        ? { ...every, oneByOne: true }
        : { bulkIds: [input.bulk] };
  const filter = { ...scope, ...(input.status ? { status: input.status } : {}) };
  const inUploads = replacementsInUploads(ledger, environment);
  const page = store.page({
    ...filter,
    limit: input.limit,
    offset: input.offset,
    order: input.order ?? 'firstSeen',
  });
  const elsewhere = await elsewhereOf(rt, page);
  return {
    donations: page.map((d) => donationView(d, inUploads, elsewhere)),
    total: store.count(filter),
    declinedOpen: store.declinedOpen(scope),
    bulkIds: store.bulksWithDonations(ours),
    lastRefreshAt: store.lastRefreshAt(),
  };
}

/** donations.summary: totals per status, and per upload against what was sent. */
export async function donationsSummary(rt: ReconcileRuntime): Promise<ChannelResponse<'donations.summary'>> {
  const ctx = await rt.context();
  const { environment, store, ledger } = ctx;
  return {
    byStatus: store.totals(),
    uploads: uploadControls(ledger, environment, store.bulkSums(ledgerBulkIds(ledger, environment)), {
      lastRefreshAt: store.lastRefreshAt(),
      partials: await rt.partialsOf(ctx),
    }),
    lastRefreshAt: store.lastRefreshAt(),
  };
}

/** donations.report: the month-end report, after a refresh when asked. */
export async function donationsReport(
  rt: ReconcileRuntime,
  { month, refresh: refreshFirst }: ChannelInput<'donations.report'>,
  refresh: () => Promise<unknown>,
): Promise<ChannelResponse<'donations.report'>> {
  // Refresh reads every bulk never listed and every donation not yet final (singles too):
  // the rest cannot have changed.
  if (refreshFirst) await refresh();
  const ctx = await rt.context();
  const { environment, store, ledger } = ctx;
  return monthReport(month, environment, ledger, store, {
    generatedAt: rt.at(),
    lastRefreshAt: store.lastRefreshAt(),
    partials: await rt.partialsOf(ctx),
  });
}
