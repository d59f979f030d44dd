import type { MonthReport, ReportLine } from '../../../shared/contract/reconcileChannels';
import type { BulkSum, OneByOneSum } from './donationStore';
import type { LedgerSummaryView } from './ledgerView';
import type { PartialTotals } from './partialTotals';
import { uploadControls } from './views';

type Figure = Exclude<keyof ReportLine, 'currencyCode' | 'reconciled'>;
type State = 'pending' | 'inProgress' | 'paid' | 'cleared' | 'declinedResolved' | 'declinedOpen';

const STATES: readonly State[] = [
  'pending',
  'inProgress',
  'paid',
  'cleared',
  'declinedResolved',
  'declinedOpen',
];

const emptyLine = (currencyCode: string): ReportLine => ({
  currencyCode,
  submitted: { count: 0, amount: 0 },
  sentOneByOne: { count: 0, amount: 0 },
  pending: { count: 0, amount: 0 },
  inProgress: { count: 0, amount: 0 },
  paid: { count: 0, amount: 0 },
  cleared: { count: 0, amount: 0 },
  declinedResolved: { count: 0, amount: 0 },
  declinedOpen: { count: 0, amount: 0 },
  replacements: { count: 0, amount: 0 },
  singles: { count: 0, amount: 0 },
  reconciled: false,
});

const STATE_OF: Record<Exclude<BulkSum['status'], 'DECLINED'>, State> = {
  ACCEPTED: 'pending',
  INITIATED: 'inProgress',
  IN_PROGRESS: 'inProgress',
  PAID: 'paid',
  CLEARED: 'cleared',
};

/** What the report reads from the database: sums by SQL, never the donations themselves. */
export interface ReportSums {
  /** Per bulk, status and currency (see DonationStore.bulkSums). */
  bulkSums(bulkIds: string[]): BulkSum[];
  /**
   * Donations this app created one at a time first recorded in the month (see
   * DonationStore.oneByOneSums); donations of the account made elsewhere carry neither of the
   * app's pairs and are left out.
   */
  oneByOneSums(month: string): OneByOneSum[];
}

/**
 * The month-end report of a UTC month, per currency to the minor unit. The month holds the uploads
 * created in it (by the ledger's createdAt) and the donations sent one by one in it (by when this
 * app first recorded them, right after the service answered). Each of those donations is counted
 * once as sent (in the ledger's rows for an upload, as itself when sent one by one) and once in the
 * state it is in now. The month reconciles when both sides agree for every currency and every
 * upload's own control total adds up. A correction belongs to the month it was sent in, like any
 * donation: sent as a bulk file it is a row of its upload, sent one by one it is a donation sent one
 * by one. It is shown again only as an "of which" figure, never added to the sum.
 */
export function monthReport(
  month: string,
  environment: string,
  ledger: LedgerSummaryView,
  sums: ReportSums,
  context: {
    generatedAt: string;
    lastRefreshAt: string | null;
    partials?: ReadonlyMap<string, PartialTotals>;
  },
): MonthReport {
  const inMonth = ledger.groups.filter((g) => g.environment === environment && g.createdAt.startsWith(month));
  const monthBulks = new Set(inMonth.map((g) => g.id));
  const candidates = ledger.bulks.filter((b) => monthBulks.has(b.group.id)).map((b) => b.bulkId);
  const bulkSums = sums.bulkSums(candidates);
  const uploads = uploadControls(ledger, environment, bulkSums, {
    lastRefreshAt: context.lastRefreshAt,
    ...(context.partials ? { partials: context.partials } : {}),
  }).filter((u) => u.createdAt.startsWith(month));
  const bulkIds = new Set(uploads.flatMap((u) => u.bulkIds));
  const lines = new Map<string, ReportLine>();
  const add = (currencyCode: string, figure: Figure, count: number, amount: number): void => {
    let line = lines.get(currencyCode);
    if (!line) lines.set(currencyCode, (line = emptyLine(currencyCode)));
    line[figure].count += count;
    line[figure].amount += amount;
  };
  /** A group of donations in its state now; a declined one stays open until replaced or dismissed. */
  const addStates = (
    t: { status: BulkSum['status']; currencyCode: string; count: number; amount: number; open: number },
    openAmount: number,
  ) => {
    if (t.status !== 'DECLINED') return add(t.currencyCode, STATE_OF[t.status], t.count, t.amount);
    add(t.currencyCode, 'declinedOpen', t.open, openAmount);
    add(t.currencyCode, 'declinedResolved', t.count - t.open, t.amount - openAmount);
  };
  for (const u of uploads) {
    for (const t of u.submitted) add(t.currencyCode, 'submitted', t.count, t.amount);
  }
  for (const t of bulkSums) {
    if (!bulkIds.has(t.bulkId)) continue;
    addStates(t, t.openAmount);
    if (t.corrections > 0) add(t.currencyCode, 'replacements', t.corrections, t.correctionsAmount);
  }
  for (const t of sums.oneByOneSums(month)) {
    add(t.currencyCode, 'sentOneByOne', t.count, t.amount);
    addStates(t, t.openAmount);
    add(t.currencyCode, t.mark === 'replaces' ? 'replacements' : 'singles', t.count, t.amount);
  }
  for (const line of lines.values()) {
    const count = STATES.reduce((n, s) => n + line[s].count, 0);
    const amount = STATES.reduce((n, s) => n + line[s].amount, 0);
    line.reconciled =
      count === line.submitted.count + line.sentOneByOne.count &&
      amount === line.submitted.amount + line.sentOneByOne.amount;
  }
  const sorted = [...lines.values()].sort((x, y) => x.currencyCode.localeCompare(y.currencyCode));
  return {
    month,
    environment,
    generatedAt: context.generatedAt,
    lastRefreshAt: context.lastRefreshAt,
    uploads,
    lines: sorted,
    reconciled: sorted.every((l) => l.reconciled) && uploads.every((u) => u.reconciled),
  };
}
