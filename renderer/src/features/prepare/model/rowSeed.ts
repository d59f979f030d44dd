import {
  emptyDigests,
  setDigest,
  type CheckableDonation,
  type FileDigests,
} from '../../../../../shared/donation';
import { checkRow, type CheckableRow, type RowChecker } from '../../../../../shared/workspace';
import type { NumberStyle } from '../../../../../shared/amounts';

/** The row is summarised here and has not changed since. */
export const SEED_LIVE = 1;
export const SEED_VALID = 2;
/** The row has warnings of its own (whitespace trimmed, float noise). */
export const SEED_WARNED = 4;

/**
 * Every row checked on another thread, summarised in typed arrays indexed by row key: what the
 * counts, currency totals and largest recipients need, and nothing per row that would have to be
 * copied as objects. The window checks a row again itself when it needs its issues (a row on
 * screen), with the same checker, so nothing here has to carry messages.
 */
export interface RowSeed {
  flags: Uint8Array;
  /** For valid rows: index into `pairs`. */
  pair: Int32Array;
  /** For valid rows: the amount in minor units. */
  amount: Float64Array;
  /** The distinct recipient and currency pairs of the valid rows. */
  pairs: { recipientId: string; currencyCode: string }[];
  /** The number style the rows were read with, to make sure the window's checker is the same. */
  numberStyle: NumberStyle;
}

/**
 * Checks every row, for a seed and the digests the across-rows checks need (by key). Rows without a
 * key are keyed by their position, as the rows of a new workspace are. The donations themselves are
 * not kept: at 100,000 rows keeping them would cost memory and collector time for nothing.
 */
export function seedRows(
  checker: RowChecker,
  rows: readonly (Omit<CheckableRow, 'key'> & { key?: number })[],
): { seed: RowSeed; digests: FileDigests } {
  const size = rows.reduce((max, row, i) => Math.max(max, (row.key ?? i) + 1), 0);
  // One row object reused for every check: 100,000 of them would only feed the collector.
  const scratch: { key: number; rowNumber: number | null; cells: readonly string[] } = {
    key: 0,
    rowNumber: null,
    cells: [],
  };
  const flags = new Uint8Array(size);
  const pair = new Int32Array(size);
  const amount = new Float64Array(size);
  const pairs: RowSeed['pairs'] = [];
  // By recipient, then currency: two lookups of texts the rows share, no key text made per row.
  const pairIndex = new Map<string, Map<string, number>>();
  const digests = emptyDigests();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Omit<CheckableRow, 'key'> & { key?: number };
    scratch.key = row.key ?? i;
    scratch.rowNumber = row.rowNumber;
    scratch.cells = row.cells;
    const key = scratch.key;
    const result = checkRow(checker, scratch);
    setDigest(digests, key, result.donation as CheckableDonation);
    let bits = SEED_LIVE;
    for (const issue of result.issues) {
      if (issue.severity === 'warning') {
        bits |= SEED_WARNED;
        break;
      }
    }
    if (result.ok) {
      bits |= SEED_VALID;
      const { recipientId } = result.donation.destination;
      const { currencyCode } = result.donation.funds;
      let byCurrency = pairIndex.get(recipientId);
      if (byCurrency === undefined) pairIndex.set(recipientId, (byCurrency = new Map()));
      let p = byCurrency.get(currencyCode);
      if (p === undefined) {
        p = pairs.length;
        pairs.push({ recipientId, currencyCode });
        byCurrency.set(currencyCode, p);
      }
      pair[key] = p;
      amount[key] = result.donation.funds.amount;
    }
    flags[key] = bits;
  }
  return { seed: { flags, pair, amount, pairs, numberStyle: checker.numberStyle }, digests };
}

export const seedTransferables = (seed: RowSeed): ArrayBuffer[] => [
  seed.flags.buffer as ArrayBuffer,
  seed.pair.buffer as ArrayBuffer,
  seed.amount.buffer as ArrayBuffer,
];
