import {
  isOpenResolution,
  type MonthReport,
  type ReportLine,
} from '../../../shared/contract/reconcileChannels';
import { REPLACES_KEY } from '../../../shared/mapping';
import { markedByThisApp, type StoredDonation } from './donationStore';
import type { LedgerView } from './ledgerView';
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

function stateOf(d: StoredDonation): State {
  switch (d.resource.attributes.state.processingStatus) {
    case 'ACCEPTED':
      return 'pending';
    case 'INITIATED':
    case 'IN_PROGRESS':
      return 'inProgress';
    case 'PAID':
      return 'paid';
    case 'CLEARED':
      return 'cleared';
    case 'DECLINED':
      return isOpenResolution(d.resolution) ? 'declinedOpen' : 'declinedResolved';
  }
}

/** A donation that corrects a declined one: linked when listed or sent, or carrying the app's pair. */
const isCorrection = (d: StoredDonation): boolean =>
  d.replaces !== null || d.resource.attributes.metadata?.[REPLACES_KEY] !== undefined;

/**
 * A donation this app created one at a time with POST /donations (a correction or a single donation
 * from the form). Donations of the account made elsewhere, listed with "every donation", carry
 * neither of the app's pairs and are left out.
 */
const sentOneByOne = (d: StoredDonation): boolean =>
  !d.resource.attributes.bulkId && (d.replaces !== null || markedByThisApp(d.resource));

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
  ledger: LedgerView,
  donations: StoredDonation[],
  context: {
    generatedAt: string;
    lastRefreshAt: string | null;
    partials?: ReadonlyMap<string, PartialTotals>;
  },
): MonthReport {
  const uploads = uploadControls(ledger, environment, donations, {
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
  for (const u of uploads) {
    for (const t of u.submitted) add(t.currencyCode, 'submitted', t.count, t.amount);
  }
  for (const d of donations) {
    const a = d.resource.attributes;
    const inUpload = !!a.bulkId && bulkIds.has(a.bulkId);
    const oneByOne = !inUpload && sentOneByOne(d) && d.firstSeenAt.startsWith(month);
    if (!inUpload && !oneByOne) continue;
    const { currencyCode, amount } = a.funds;
    if (oneByOne) add(currencyCode, 'sentOneByOne', 1, amount);
    add(currencyCode, stateOf(d), 1, amount);
    if (isCorrection(d)) add(currencyCode, 'replacements', 1, amount);
    else if (oneByOne) add(currencyCode, 'singles', 1, amount);
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
