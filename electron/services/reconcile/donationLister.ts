import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { DeskFailure } from '../../../shared/result';
import type { ServiceClient } from '../api/serviceClient';

export interface ListQuery {
  bulkId?: string;
  status?: string;
  /** Requested page size; the service caps it (250 in the emulator) and may truncate further. */
  pageSize: number;
}

export interface ListOptions {
  signal?: AbortSignal;
  /** After each page: the donations of that page, how many distinct ones so far, pages so far. */
  onPage?(donations: DonationResource[], distinct: number, pages: number): Promise<void> | void;
  /**
   * Keep every donation to return them at the end (default). A caller that stores each page as it
   * comes passes false: only the ids are kept (for the distinct count), so memory does not grow
   * with the listing (a bulk of 100,000 donations is about 200 MB of objects).
   */
  keep?: boolean;
  /**
   * With `keep: false`, whether the ids are kept to count distinct donations (default). A caller
   * that does not read the count passes false: nothing of the listing is then held beyond a page
   * (the ids of a bulk of 100,000 are about 7 MB that V8 then lets its heap grow by several times),
   * and onPage's count is of donations handed over (a page boundary seen twice counts twice).
   */
  distinct?: boolean;
}

type PageRequest = Parameters<ServiceClient['donationPage']>[0];
type PageAnswer = Awaited<ReturnType<ServiceClient['donationPage']>>;

/**
 * Every donation matching the query, following links.next until the range is no longer truncated,
 * with the next page asked for while the one just read is handed to onPage.
 * The cursors point at positions in the service's order, so this misses none; an id that comes back
 * on a later page (a page boundary seen twice) keeps its latest answer and is counted once. Stops
 * between pages when the signal fires, with code CANCELLED; what was handed to onPage until then is
 * kept, and the page read ahead, if any, is dropped.
 */
export async function listDonations(
  client: ServiceClient,
  query: ListQuery,
  options: ListOptions = {},
): Promise<{ donations: DonationResource[]; pages: number }> {
  const byId = new Map<string, DonationResource>();
  const seen = new Set<string>();
  const keep = options.keep ?? true;
  const distinct = keep || (options.distinct ?? true);
  let handed = 0;
  const first: Record<string, string> = { 'page[size]': String(query.pageSize) };
  if (query.bulkId) first['filter[bulk]'] = query.bulkId;
  if (query.status) first['filter[status]'] = query.status;
  const visited = new Set<string>();
  let pages = 0;
  // One page is read ahead: the next is asked for (by its links.next, as the spec pages) as soon as
  // a page arrives, and comes while this one is handed over and stored. Never more than one.
  let ahead: Promise<PageAnswer> | null = null;
  const ask = (request: PageRequest): Promise<PageAnswer> => {
    const asked = client.donationPage(request);
    // Not awaited when the listing stops first (cancelled, or onPage failed): not a stray failure.
    asked.catch(() => undefined);
    return asked;
  };
  try {
    let request: PageRequest = { first };
    for (;;) {
      if (options.signal?.aborted) throw new DeskFailure('CANCELLED', 'Listing donations was cancelled.');
      const answer: PageAnswer = await (ahead ?? ask(request));
      const { page, next } = answer;
      ahead = null;
      pages++;
      if (next) {
        // A cursor that leads back to a page already read would loop forever.
        if (visited.has(next)) {
          throw new DeskFailure(
            'BAD_RESPONSE',
            'The donation list (GET /donations) sent the same page twice.',
          );
        }
        visited.add(next);
        request = { next };
        if (!options.signal?.aborted) ahead = ask(request);
      }
      if (keep) for (const d of page.data) byId.set(d.id, d);
      else if (distinct) for (const d of page.data) seen.add(d.id);
      handed += page.data.length;
      await options.onPage?.(page.data, keep ? byId.size : distinct ? seen.size : handed, pages);
      if (!next) break;
    }
  } finally {
    // A page read ahead and not used: its answer is dropped once it comes (no request is left behind).
    if (ahead) await ahead.catch(() => undefined);
  }
  return { donations: [...byId.values()], pages };
}
