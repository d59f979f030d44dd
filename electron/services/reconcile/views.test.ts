import { describe, expect, it } from 'vitest';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DonationStore, type StoredDonation } from './donationStore';
import type { LedgerView } from './ledgerView';
import { uploadControls } from './views';

const group: LedgerGroup = {
  id: 'u1',
  workspaceId: 'w1',
  workspaceName: 'November',
  createdAt: '2026-11-05T10:00:00.000Z',
  environment: 'offline',
  baseUrl: 'http://service',
  referenceKey: 'ddRef',
  parts: [
    {
      index: 0,
      rowKeys: [1, 2, 3],
      rowNumbers: [2, 3, 4],
      fingerprints: ['a', 'b', 'c'],
      totals: [{ currencyCode: 'USD', count: 3, amount: 3000 }],
      fileHash: 'h',
      fileBytes: 1,
      file: 'f',
    },
  ],
  corrects: null,
  replaces: [],
  stopped: null,
};

const intent = (over: Partial<LedgerIntent>): LedgerIntent => ({
  attemptId: 'a1',
  serviceId: 'bulk-1',
  groupId: 'u1',
  part: 0,
  state: 'PROCESSED',
  createdAt: '2026-11-05T10:00:00.000Z',
  updatedAt: '2026-11-05T10:05:00.000Z',
  expiresAt: null,
  timeline: [],
  counts: {},
  error: null,
  donationRowKeys: [1, 2, 3],
  correctedByUpload: null,
  ...over,
});

const ledgerWith = (i: LedgerIntent): LedgerView => {
  const bulk = { bulkId: 'bulk-1', group, intent: i };
  return { groups: [group], intents: [i], bulks: [bulk], byBulkId: new Map([['bulk-1', bulk]]) };
};

const donation = (id: string, amount: number): StoredDonation =>
  ({
    resource: {
      type: 'donations',
      id,
      attributes: {
        destination: { recipientId: '840-123456789' },
        funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount },
        state: { processingStatus: 'INITIATED' },
        bulkId: 'bulk-1',
      },
    },
    history: [],
    row: null,
    firstSeenAt: 'x',
    lastSeenAt: 'x',
    resolution: null,
    replaces: null,
  }) as StoredDonation;

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

/** The bulk sums of these donations, by the store's SQL. */
const sumsOf = async (list: StoredDonation[]) => (await storeOf(list)).bulkSums(['bulk-1']);

describe('upload control totals', () => {
  it('say "not read yet" only when nothing was read since the upload finished', async () => {
    const ledger = ledgerWith(intent({}));
    const never = uploadControls(ledger, 'offline', [], { lastRefreshAt: null })[0];
    expect(never).toMatchObject({ notReadYet: true, reconciled: false });
    const before = uploadControls(ledger, 'offline', [], { lastRefreshAt: '2026-11-05T10:04:00.000Z' })[0];
    expect(before?.notReadYet).toBe(true);
    // Read after it finished and nothing found: a real difference, told in money.
    const after = uploadControls(ledger, 'offline', [], { lastRefreshAt: '2026-11-05T10:06:00.000Z' })[0];
    expect(after).toMatchObject({ notReadYet: false, reconciled: false });
    expect(after?.notes).toEqual([
      'USD: 3 donations for $30.00 sent, but 0 donations for $0.00 found at the service. Refresh from the service; if it stays, ask the service about this upload.',
    ]);
  });

  it('count a part that stopped part-way by the rows that got a donation, or say why they cannot', async () => {
    const ledger = ledgerWith(intent({ state: 'ERROR', donationRowKeys: [1, 3] }));
    const found = await sumsOf([donation('d1', 1000), donation('d3', 500)]);
    const known = uploadControls(ledger, 'offline', found, {
      lastRefreshAt: '2026-11-06T00:00:00.000Z',
      partials: new Map([['bulk-1', { totals: [{ currencyCode: 'USD', count: 2, amount: 1500 }] }]]),
    })[0];
    expect(known).toMatchObject({ reconciled: true, notes: [] });
    expect(known?.submitted).toEqual([{ currencyCode: 'USD', count: 2, amount: 1500 }]);
    const missing = uploadControls(ledger, 'offline', found, {
      lastRefreshAt: '2026-11-06T00:00:00.000Z',
      partials: new Map([['bulk-1', { problem: 'The kept copy is missing.' }]]),
    })[0];
    expect(missing?.reconciled).toBe(false);
    expect(missing?.notes[0]).toBe(
      'Part 1 stopped after 2 donations were created, and what was sent for those rows is not known: The kept copy is missing.',
    );
  });

  it('never leave out donations of a part that ended in error with its rows not yet known', async () => {
    const ledger = ledgerWith(intent({ state: 'ERROR', donationRowKeys: null }));
    const control = uploadControls(ledger, 'offline', await sumsOf([donation('d1', 1000)]), {
      lastRefreshAt: '2026-11-06T00:00:00.000Z',
    })[0];
    expect(control?.bulkIds).toEqual(['bulk-1']);
    expect(control?.accepted).toEqual([{ currencyCode: 'USD', count: 1, amount: 1000 }]);
    expect(control?.reconciled).toBe(false);
    expect(control?.notes[0]).toMatch(/which rows got them is not known yet/);
    // With none read, such a part has nothing to show.
    expect(uploadControls(ledger, 'offline', [], { lastRefreshAt: null })).toEqual([]);
  });
});
