/*
 * The donations as the screens and the CLI list them: read from the service first (or from the
 * store alone when cached), one page with the total or every one, each shown with the upload that
 * is replacing it and a colleague's correction of it.
 */
import type { ChannelInput, ChannelResponse } from '../../../shared/contract';
import type { DonationFilter, DonationQuery, DonationStore, StoredDonation } from './donationStore';
import { readInto, refreshSingles } from './donationReading';
import type { CorrectionElsewhere } from './ledgerSharing';
import { readLedgerSummaryView } from './ledgerView';
import { ledgerBulkIds, type ReconcileRuntime } from './reconcileContext';
import { replacementsInUploads, type InUpload } from './replacements';
import { donationView } from './views';

export type ListResult = ChannelResponse<'donations.list'>;

/** How many donations one query reads when every one of a list is asked for. */
const WHOLE_LIST_PAGE = 5_000;

/**
 * Team mode: colleagues' corrections of the open declined donations among these, by donation id.
 * Best effort: a team database that cannot be reached shows none, and never fails the page.
 */
export function elsewhereOf(
  rt: ReconcileRuntime,
  donations: readonly StoredDonation[],
): Promise<Map<string, CorrectionElsewhere>> {
  const ids = donations
    .filter(
      (d) => d.resource.attributes.state.processingStatus === 'DECLINED' && d.resolution?.kind !== 'replaced',
    )
    .map((d) => d.resource.id);
  return rt.sharing.correctionsElsewhere(ids);
}

/**
 * The listed donations as the database has them: with `limit`, one page and the total; without,
 * all of them (read page by page, for callers that asked for the whole list).
 */
export async function listing(
  rt: ReconcileRuntime,
  store: DonationStore,
  filter: DonationFilter,
  pages: number,
  inUploads: Map<string, InUpload>,
  paging: Pick<ChannelInput<'donations.list'>, 'limit' | 'offset' | 'after'>,
): Promise<ListResult> {
  const total = store.count(filter);
  let donations: StoredDonation[];
  if (paging.limit !== undefined) {
    donations =
      paging.limit === 0
        ? []
        : store.page({
            ...filter,
            limit: paging.limit,
            ...(paging.offset !== undefined ? { offset: paging.offset } : {}),
            ...(paging.after ? { after: paging.after } : {}),
          });
  } else {
    donations = [];
    let after: DonationQuery['after'];
    for (;;) {
      const page = store.page({ ...filter, limit: WHOLE_LIST_PAGE, ...(after ? { after } : {}) });
      donations.push(...page);
      const last = page.at(-1);
      if (page.length < WHOLE_LIST_PAGE || !last) break;
      after = store.cursorAfter(last.resource.id) ?? undefined;
      if (!after) break;
    }
  }
  const last = donations.at(-1);
  const full = paging.limit !== undefined && paging.limit > 0 && donations.length === paging.limit;
  const elsewhere = await elsewhereOf(rt, donations);
  return {
    donations: donations.map((d) => donationView(d, inUploads, elsewhere)),
    total,
    next: full && last ? store.cursorAfter(last.resource.id) : null,
    lastRefreshAt: store.lastRefreshAt(),
    pages,
  };
}

/** donations.list: the given bulks (absent: the ledger's; empty: the whole account) read, then listed. */
export async function listDonationsOf(
  rt: ReconcileRuntime,
  input: ChannelInput<'donations.list'>,
): Promise<ListResult> {
  const { environment, store, ledger } = await rt.context();
  // An empty list reads every donation of the account (no bulk filter), keeping those this app
  // made (to find a correction whose answer was lost); absent means the ledger's bulks.
  const bulkIds = input.bulkIds ?? ledgerBulkIds(ledger, environment);
  const everything = input.bulkIds !== undefined && input.bulkIds.length === 0;
  // A correction belongs to no bulk, but it is part of the story of the bulk whose donation it
  // replaces; donations made one at a time from the form belong to no bulk but to this app's list.
  const filter: DonationFilter = {
    bulkIds: everything ? null : bulkIds,
    singles: input.bulkIds === undefined,
    corrections: true,
    ...(input.status ? { status: input.status } : {}),
  };
  const paging = {
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
    ...(input.offset !== undefined ? { offset: input.offset } : {}),
    ...(input.after ? { after: input.after } : {}),
  };
  const inUploads = replacementsInUploads(ledger, environment);
  if (input.cached) return listing(rt, store, filter, 0, inUploads, paging);
  // The uploads' list includes what was sent one by one: those are read too.
  if (input.bulkIds === undefined) await refreshSingles(rt, store);
  const pages = await readInto(
    rt,
    store,
    await readLedgerSummaryView(rt.ledgerDir),
    everything ? [undefined] : bulkIds,
    {
      ...(everything ? { onlyOurs: new Set(ledgerBulkIds(ledger, environment)) } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.jobId ? { jobId: input.jobId } : {}),
      ...(input.pageSize ? { pageSize: input.pageSize } : {}),
    },
  );
  return listing(
    rt,
    store,
    filter,
    pages,
    replacementsInUploads(await readLedgerSummaryView(rt.ledgerDir), environment),
    paging,
  );
}
