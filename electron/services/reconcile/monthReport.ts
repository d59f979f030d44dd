import type { MonthReport, ReportLine } from '../../../shared/contract/reconcileChannels';
import type { StoredDonation } from './donationStore';
import type { LedgerView } from './ledgerView';
import { uploadControls } from './views';

type Bucket = Exclude<keyof ReportLine, 'currencyCode' | 'reconciled'>;

const emptyLine = (currencyCode: string): ReportLine => ({
  currencyCode,
  submitted: { count: 0, amount: 0 },
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

function bucketOf(d: StoredDonation): Bucket {
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
      return d.resolution && d.resolution.kind !== 'replacing' ? 'declinedResolved' : 'declinedOpen';
  }
}

/**
 * The month-end report: the uploads created in the UTC month (by the ledger's createdAt), what the
 * service took of them, and where each of their donations stands, per currency to the minor unit.
 * It reconciles when, for every currency, what was submitted equals the sum of every state.
 */
export function monthReport(
  month: string,
  environment: string,
  ledger: LedgerView,
  donations: StoredDonation[],
  context: { generatedAt: string; lastRefreshAt: string | null },
): MonthReport {
  const uploads = uploadControls(ledger, environment, donations).filter((u) => u.createdAt.startsWith(month));
  const bulkIds = new Set(uploads.flatMap((u) => u.bulkIds));
  const lines = new Map<string, ReportLine>();
  const line = (currencyCode: string): ReportLine => {
    let l = lines.get(currencyCode);
    if (!l) lines.set(currencyCode, (l = emptyLine(currencyCode)));
    return l;
  };
  for (const u of uploads) {
    for (const t of u.submitted) {
      const l = line(t.currencyCode);
      l.submitted.count += t.count;
      l.submitted.amount += t.amount;
    }
  }
  const declinedHere = new Set<string>();
  for (const d of donations) {
    const a = d.resource.attributes;
    if (!a.bulkId || !bulkIds.has(a.bulkId)) continue;
    if (a.state.processingStatus === 'DECLINED') declinedHere.add(d.resource.id);
    const bucket = line(a.funds.currencyCode)[bucketOf(d)];
    bucket.count++;
    bucket.amount += a.funds.amount;
  }
  for (const d of donations) {
    if (!d.replaces || !declinedHere.has(d.replaces)) continue;
    const bucket = line(d.resource.attributes.funds.currencyCode).replacements;
    bucket.count++;
    bucket.amount += d.resource.attributes.funds.amount;
  }
  for (const d of donations) {
    const a = d.resource.attributes;
    // Made from the form this month: no bulk, no declined donation it replaces.
    if (a.bulkId || d.replaces || !d.firstSeenAt.startsWith(month)) continue;
    const bucket = line(a.funds.currencyCode).singles;
    bucket.count++;
    bucket.amount += a.funds.amount;
  }
  const parts: Bucket[] = ['pending', 'inProgress', 'paid', 'cleared', 'declinedResolved', 'declinedOpen'];
  for (const l of lines.values()) {
    const count = parts.reduce((n, p) => n + l[p].count, 0);
    const amount = parts.reduce((n, p) => n + l[p].amount, 0);
    l.reconciled = count === l.submitted.count && amount === l.submitted.amount;
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
