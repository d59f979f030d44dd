import { describe, expect, it } from 'vitest';
import type { ReportLine } from '../../../shared/contract/reconcileChannels';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DonationStore, type StoredDonation } from './donationStore';
import type { LedgerView } from './ledgerView';
import { monthReport } from './monthReport';

type Status = StoredDonation['resource']['attributes']['state']['processingStatus'];

const group = (id: string, createdAt: string, usd: { count: number; amount: number }): LedgerGroup => ({
  id,
  workspaceId: `w-${id}`,
  workspaceName: `Workspace ${id}`,
  createdAt,
  environment: 'offline',
  baseUrl: 'http://service',
  referenceKey: 'ddRef',
  parts: [
    {
      index: 0,
      rowKeys: [],
      rowNumbers: [],
      fingerprints: [],
      totals: [{ currencyCode: 'USD', ...usd }],
      fileHash: 'h',
      fileBytes: 1,
      file: 'f',
    },
  ],
  corrects: null,
  replaces: [],
  stopped: null,
});

const intent = (groupId: string, serviceId: string, createdAt: string): LedgerIntent => ({
  attemptId: `a-${groupId}`,
  serviceId,
  groupId,
  part: 0,
  state: 'PROCESSED',
  createdAt,
  updatedAt: createdAt,
  expiresAt: null,
  timeline: [],
  counts: {},
  error: null,
  donationRowKeys: null,
  correctedByUpload: null,
});

function ledgerOf(uploads: Array<[LedgerGroup, string]>): LedgerView {
  const bulks = uploads.map(([g, bulkId]) => ({
    bulkId,
    group: g,
    intent: intent(g.id, bulkId, g.createdAt),
  }));
  return {
    groups: uploads.map(([g]) => g),
    intents: bulks.map((b) => b.intent),
    bulks,
    byBulkId: new Map(bulks.map((b) => [b.bulkId, b])),
  };
}

const donation = (
  id: string,
  status: Status,
  funds: { currencyCode: string; amount: number },
  over: {
    bulkId?: string;
    metadata?: Record<string, string>;
    firstSeenAt?: string;
    resolution?: StoredDonation['resolution'];
    replaces?: string;
  } = {},
): StoredDonation => ({
  resource: {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: '840-123456789' },
      funds: { paymentType: 'DONATION_REPORT', ...funds },
      metadata: over.metadata ?? {},
      state: { processingStatus: status },
      ...(over.bulkId ? { bulkId: over.bulkId } : {}),
    },
  } as StoredDonation['resource'],
  history: [],
  row: null,
  firstSeenAt: over.firstSeenAt ?? '2026-11-05T10:00:00.000Z',
  lastSeenAt: '2026-12-10T10:00:00.000Z',
  resolution: over.resolution ?? null,
  replaces: over.replaces ?? null,
});

const usd = (amount: number) => ({ currencyCode: 'USD', amount });
const zero = { count: 0, amount: 0 };
const replaced = (replacementId: string) => ({ kind: 'replaced' as const, at: 'x', replacementId });

/**
 * November: an upload of three USD gifts, two declined. One is corrected one by one in December,
 * the other by a corrections upload in December. A single donation from the form in November, a
 * correction found by listing every donation (its declined one unknown here), and a donation of
 * the account made elsewhere.
 */
const november = group('nov', '2026-11-05T10:00:00.000Z', { count: 3, amount: 3000 });
const december: LedgerGroup = {
  ...group('dec', '2026-12-02T09:00:00.000Z', { count: 1, amount: 1000 }),
  replaces: [{ rowKey: 0, donationId: 'n3' }],
};
const ledger = ledgerOf([
  [november, 'bulk-nov'],
  [december, 'bulk-dec'],
]);
const donations: StoredDonation[] = [
  donation('n1', 'CLEARED', usd(1000), { bulkId: 'bulk-nov' }),
  donation('n2', 'DECLINED', usd(1000), { bulkId: 'bulk-nov', resolution: replaced('o1') }),
  donation('n3', 'DECLINED', usd(1000), { bulkId: 'bulk-nov', resolution: replaced('c1') }),
  donation('c1', 'PAID', usd(1000), {
    bulkId: 'bulk-dec',
    replaces: 'n3',
    metadata: { ddReplaces: 'n3' },
    firstSeenAt: '2026-12-02T10:00:00.000Z',
  }),
  donation('o1', 'INITIATED', usd(1000), {
    replaces: 'n2',
    metadata: { ddReplaces: 'n2' },
    firstSeenAt: '2026-12-01T00:00:00.000Z',
  }),
  donation('s1', 'ACCEPTED', usd(500), {
    metadata: { ddSingle: 'ref-1' },
    firstSeenAt: '2026-11-30T23:59:59.999Z',
  }),
  donation(
    'lost',
    'ACCEPTED',
    { currencyCode: 'EUR', amount: 200 },
    {
      metadata: { ddReplaces: 'declined-elsewhere' },
      firstSeenAt: '2026-11-15T10:00:00.000Z',
    },
  ),
  donation('elsewhere', 'CLEARED', usd(700), { firstSeenAt: '2026-11-10T10:00:00.000Z' }),
];

/** The donations written to a real store in a fresh data folder: the sums come from its SQL. */
async function storeOf(list: StoredDonation[]): Promise<DonationStore> {
  const dir = mkdtempSync(join(tmpdir(), 'dd-sums-'));
  const store = await DonationStore.open(join(dir, 'reconcile', 'donations-offline.json'));
  for (const d of list) {
    store.record(d.resource, d.row, d.firstSeenAt, d.replaces ? { replaces: d.replaces } : {});
    if (d.resolution) store.resolve(d.resource.id, d.resolution);
  }
  await store.save();
  return store;
}

const report = async (month: string, list = donations) =>
  monthReport(month, 'offline', ledger, await storeOf(list), { generatedAt: 'now', lastRefreshAt: null });

const line = (over: Partial<ReportLine>): ReportLine => ({
  currencyCode: 'USD',
  submitted: zero,
  sentOneByOne: zero,
  pending: zero,
  inProgress: zero,
  paid: zero,
  cleared: zero,
  declinedResolved: zero,
  declinedOpen: zero,
  replacements: zero,
  singles: zero,
  reconciled: true,
  ...over,
});

describe('monthReport', () => {
  it("counts a month's uploads and the donations sent one by one in it, each once", async () => {
    const r = await report('2026-11');
    expect(r.uploads.map((u) => u.uploadId)).toEqual(['nov']);
    expect(r.lines).toEqual([
      // A correction found at the service is a donation sent one by one, counted as a correction.
      line({
        currencyCode: 'EUR',
        sentOneByOne: { count: 1, amount: 200 },
        pending: { count: 1, amount: 200 },
        replacements: { count: 1, amount: 200 },
      }),
      // The donation made elsewhere (no bulk of the ledger, none of the app's pairs) is left out.
      line({
        submitted: { count: 3, amount: 3000 },
        sentOneByOne: { count: 1, amount: 500 },
        pending: { count: 1, amount: 500 },
        cleared: { count: 1, amount: 1000 },
        declinedResolved: { count: 2, amount: 2000 },
        singles: { count: 1, amount: 500 },
      }),
    ]);
    expect(r.reconciled).toBe(true);
  });

  it('puts corrections in the month they were sent in, by bulk file or one by one alike', async () => {
    const r = await report('2026-12');
    expect(r.uploads.map((u) => u.uploadId)).toEqual(['dec']);
    expect(r.lines).toEqual([
      line({
        submitted: { count: 1, amount: 1000 },
        sentOneByOne: { count: 1, amount: 1000 },
        inProgress: { count: 1, amount: 1000 },
        paid: { count: 1, amount: 1000 },
        replacements: { count: 2, amount: 2000 },
      }),
    ]);
    expect(r.reconciled).toBe(true);
  });

  it('keeps a declined donation open while its correction has no answer', async () => {
    const list = donations.map((d) =>
      d.resource.id === 'n2' ? { ...d, resolution: { kind: 'replacing' as const, at: 'x' } } : d,
    );
    const usdLine = (await report('2026-11', list)).lines.find((l) => l.currencyCode === 'USD');
    expect(usdLine?.declinedOpen).toEqual({ count: 1, amount: 1000 });
    expect(usdLine?.declinedResolved).toEqual({ count: 1, amount: 1000 });
    expect(usdLine?.reconciled).toBe(true);
  });

  it('does not add up when a donation of an upload has not been read', async () => {
    const r = await report(
      '2026-11',
      donations.filter((d) => d.resource.id !== 'n1'),
    );
    const usdLine = r.lines.find((l) => l.currencyCode === 'USD');
    expect(usdLine?.reconciled).toBe(false);
    expect(r.lines.find((l) => l.currencyCode === 'EUR')?.reconciled).toBe(true);
    expect(r.uploads[0]?.reconciled).toBe(false);
    expect(r.reconciled).toBe(false);
  });

  it('leaves out other environments and empty months', async () => {
    expect(
      monthReport('2026-11', 'sandbox', ledger, await storeOf([]), {
        generatedAt: 'now',
        lastRefreshAt: null,
      }),
    ).toMatchObject({ uploads: [], lines: [], reconciled: true });
    expect(await report('2026-10')).toMatchObject({ uploads: [], lines: [], reconciled: true });
  });
});
