import { sentElsewhere } from './ledgerSharing';
import { type DonationView, type UploadControl } from '../../../shared/contract/reconcileChannels';
import { formatMinor } from '../../../shared/amounts';
import { count as countOf, plural } from '../../../shared/i18n';
import type { BulkSum, StoredDonation } from './donationStore';
import type { LedgerSummaryView } from './ledgerView';
import type { PartialTotals } from './partialTotals';

/** A stored donation as the screens and the CLI see it: flat, every optional part spelled out. */
export function donationView(
  stored: StoredDonation,
  inUploads: ReadonlyMap<string, NonNullable<DonationView['inUpload']>>,
  /** Team mode: colleagues' corrections of declined donations, by donation id. */
  elsewhere?: ReadonlyMap<string, NonNullable<DonationView['correctionElsewhere']>>,
): DonationView {
  const a = stored.resource.attributes;
  return {
    id: stored.resource.id,
    recipientId: a.destination.recipientId,
    foundationId: a.destination.foundationId ?? null,
    amount: a.funds.amount,
    currencyCode: a.funds.currencyCode,
    donorName: a.donor?.fullName ?? null,
    state: a.state.processingStatus,
    statusLastUpdated: a.state.statusLastUpdated ?? null,
    payablePaymentType: a.payable?.paymentType ?? null,
    receiptId: a.funds.receiptId ?? null,
    metadata: a.metadata ?? {},
    bulkId: a.bulkId ?? null,
    row: stored.row,
    errors: (a.state.errors ?? []).map((e) => ({
      status: e.status ?? '',
      code: e.code ?? '',
      title: e.title ?? '',
      detail: e.detail ?? '',
      pointer: e.source?.pointer ?? '',
    })),
    history: stored.history,
    lastSeenAt: stored.lastSeenAt,
    resolution: stored.resolution,
    replaces: stored.replaces,
    inUpload: stored.resolution === null ? (inUploads.get(stored.resource.id) ?? null) : null,
    correctionElsewhere:
      stored.resolution?.kind === 'replaced' || stored.resolution?.kind === 'dismissed'
        ? null
        : (elsewhere?.get(stored.resource.id) ?? null),
  };
}

type Money = { currencyCode: string; count: number; amount: number };

function add(totals: Map<string, Money>, currencyCode: string, count: number, amount: number): void {
  const t = totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
  t.count += count;
  t.amount += amount;
  totals.set(currencyCode, t);
}

const sorted = (m: Map<string, Money>): Money[] =>
  [...m.values()].sort((x, y) => x.currencyCode.localeCompare(y.currencyCode));

/** "3 donations for $12.34": a count and an amount a person reads, never raw minor units. */
const money = (t: Money): string =>
  `${countOf(t.count, 'donation')} for ${formatMinor(t.amount, t.currencyCode)}`;

export interface ControlContext {
  /** When the store last heard from the service; an upload finished after it was never read. */
  lastRefreshAt?: string | null;
  /** Totals of the rows that got a donation, per bulk that ended in ERROR part-way (partialTotals). */
  partials?: ReadonlyMap<string, PartialTotals>;
}

/**
 * Control totals per upload: what the ledger says was taken (rows of processed parts, and of a part
 * that ended in ERROR part-way, the rows that got a donation) against what the donations say happened
 * to it (accepted, declined, still pending), per currency to the minor unit. An upload none of whose
 * donations has been read since it finished is "not read yet", not a difference.
 */
export function uploadControls(
  ledger: LedgerSummaryView,
  environment: string,
  sums: readonly BulkSum[],
  context: ControlContext = {},
): UploadControl[] {
  const byBulk = new Map<string, BulkSum[]>();
  for (const t of sums) {
    const list = byBulk.get(t.bulkId) ?? [];
    list.push(t);
    byBulk.set(t.bulkId, list);
  }
  const controls: UploadControl[] = [];
  for (const group of ledger.groups) {
    if (group.environment !== environment) continue;
    const bulks = ledger.bulks.filter((b) => b.group.id === group.id);
    const submitted = new Map<string, Money>();
    const accepted = new Map<string, Money>();
    const declined = new Map<string, Money>();
    const pending = new Map<string, Money>();
    const notes: string[] = [];
    const bulkIds: string[] = [];
    let declinedOpen = 0;
    let found = 0;
    let finishedAt = '';
    for (const bulk of bulks) {
      const part = group.parts[bulk.intent.part];
      const processed = bulk.intent.state === 'PROCESSED';
      const partial = bulk.intent.state === 'ERROR' && (bulk.intent.donationRowKeys?.length ?? 0) > 0;
      // Ended in ERROR and the app could not tell which rows got a donation, yet some were read.
      const unknown =
        bulk.intent.state === 'ERROR' &&
        bulk.intent.donationRowKeys === null &&
        (byBulk.get(bulk.bulkId)?.length ?? 0) > 0;
      if (!processed && !partial && !unknown) continue;
      if (unknown) {
        const from = sentElsewhere(group);
        notes.push(
          from
            ? `Part ${bulk.intent.part + 1} ended in error after creating donations, and ${from.by}’s computer, which sent it, has not yet said which rows got them: it does at its next refresh.`
            : `Part ${bulk.intent.part + 1} ended in error after creating donations, and which rows got them is not known yet: refresh that upload in Uploads so the app checks again.`,
        );
      }
      bulkIds.push(bulk.bulkId);
      if (bulk.intent.updatedAt > finishedAt) finishedAt = bulk.intent.updatedAt;
      if (processed && part) for (const t of part.totals) add(submitted, t.currencyCode, t.count, t.amount);
      if (partial) {
        const rows = bulk.intent.donationRowKeys?.length ?? 0;
        const known = context.partials?.get(bulk.bulkId);
        if (known && 'totals' in known) {
          for (const t of known.totals) add(submitted, t.currencyCode, t.count, t.amount);
        } else {
          notes.push(
            `Part ${bulk.intent.part + 1} stopped after ${countOf(rows, 'donation')} ${plural(rows, { one: 'was', other: 'were' })} created, and what was sent for ${plural(rows, { one: 'that row', other: 'those rows' })} is not known: ${known && 'problem' in known ? known.problem : 'the kept copy of the file was not read.'}`,
          );
        }
      }
      for (const t of byBulk.get(bulk.bulkId) ?? []) {
        const target = t.status === 'DECLINED' ? declined : t.status === 'ACCEPTED' ? pending : accepted;
        add(target, t.currencyCode, t.count, t.amount);
        found += t.count;
        if (t.status === 'DECLINED') declinedOpen += t.open;
      }
    }
    if (bulkIds.length === 0) continue;
    // Nothing of it read since it finished: there is nothing to compare yet.
    const notReadYet = found === 0 && (!context.lastRefreshAt || context.lastRefreshAt < finishedAt);
    if (notReadYet) {
      notes.splice(0, notes.length, 'Not read from the service yet: press Refresh from the service.');
    } else {
      const currencies = new Set([
        ...submitted.keys(),
        ...accepted.keys(),
        ...declined.keys(),
        ...pending.keys(),
      ]);
      for (const c of [...currencies].sort()) {
        const s = submitted.get(c) ?? { currencyCode: c, count: 0, amount: 0 };
        const parts = [accepted.get(c), declined.get(c), pending.get(c)];
        const count = parts.reduce((n, t) => n + (t?.count ?? 0), 0);
        const amount = parts.reduce((n, t) => n + (t?.amount ?? 0), 0);
        if (count !== s.count || amount !== s.amount) {
          notes.push(
            `${c}: ${money(s)} sent, but ${money({ currencyCode: c, count, amount })} found at the service. Refresh from the service; if it stays, ask the service about this upload.`,
          );
        }
      }
    }
    controls.push({
      uploadId: group.id,
      workspaceId: group.workspaceId,
      workspaceName: group.workspaceName,
      createdAt: group.createdAt,
      sentElsewhere: sentElsewhere(group),
      bulkIds,
      submitted: sorted(submitted),
      accepted: sorted(accepted),
      declined: sorted(declined),
      pending: sorted(pending),
      declinedOpen,
      notReadYet,
      reconciled: notes.length === 0,
      notes,
    });
  }
  return controls;
}
