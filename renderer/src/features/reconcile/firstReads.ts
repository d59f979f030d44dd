import { desk } from '../../app/deskClient';

/*
 * What Reconcile shows first, asked of main as early as possible: the shell starts these reads when
 * the page's code is first asked for, so main works on them while the code arrives; the page takes
 * them when it is first drawn (or asks anew if they were not started, or are too old).
 */

/** Rows per page of the donations table. */
export const PAGE = 50;
/** Declined donations listed at most (open ones first); the heading counts all of them. */
export const DECLINED_SHOWN = 500;
/** Reads started longer ago than this are not taken: the page asks again. */
const FRESH_MS = 5_000;

/** The declined donations listed: open ones first, as many as are shown. */
export const readDeclined = () =>
  desk['donations.page']({ status: 'DECLINED', order: 'openFirst', offset: 0, limit: DECLINED_SHOWN });

/**
 * What the page shows first (every upload, every status, its first page), asked for together; the
 * page and the totals before the declined list, the longest answer, which main makes after them.
 * `answered` holds the page's and the totals' answers once they are in, so that a page drawn after
 * they came draws them at once.
 */
function readFirst(after?: Promise<unknown>) {
  const answered: { page?: Awaited<PageRead>; summary?: Awaited<SummaryRead> } = {};
  const page = desk['donations.page']({ offset: 0, limit: PAGE });
  const summary = desk['donations.summary']({});
  void page.then((r) => (answered.page = r));
  void summary.then((r) => (answered.summary = r));
  const declined = after ? after.then(readDeclined, readDeclined) : readDeclined();
  return { page, summary, declined, answered };
}
type PageRead = ReturnType<typeof readDeclined>;
type SummaryRead = ReturnType<(typeof desk)['donations.summary']>;
export type FirstReads = ReturnType<typeof readFirst>;

let started: { at: number; reads: FirstReads } | null = null;

/**
 * Starts the first reads ahead of the page (the shell calls it as it asks for the page's code).
 * Resolves once the first page and the totals have come, or after `waitMs` at most: the shell shows
 * the page then, drawn with them when they came. The declined list is asked for once `code` has
 * come: main sends the page's code from the same process, and making the list (500 donations,
 * checked and sent whole) while the code waits held the code back by up to 0.2 s.
 */
export function startFirstReads(waitMs: number, code?: Promise<unknown>): Promise<void> {
  const reads = readFirst(code);
  started = { at: Date.now(), reads };
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    void Promise.all([reads.page, reads.summary]).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The reads started ahead, once, if recent; else new ones. */
export function takeFirstReads(): FirstReads {
  const ahead = started;
  started = null;
  return ahead && Date.now() - ahead.at < FRESH_MS ? ahead.reads : readFirst();
}
