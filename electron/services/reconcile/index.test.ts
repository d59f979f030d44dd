import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { closeDatabase } from '../db/deskDatabase';
import type { Environments } from '../environments/environments';
import { EventBus } from '../core/eventBus';
import { DonationStore } from './donationStore';
import { createReconcileServices, type ReconcileServices } from './index';
import { localLedgerSharing, type LedgerSharing, type SharedBulk } from './ledgerSharing';

let dir: string;
let services: ReconcileServices | null = null;
const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const environments = {
  describe: () => Promise.resolve({ id: 'production', baseUrl: 'https://api.example.org', emulated: false }),
  resolve: () => Promise.reject(new Error('No call to the service is expected here.')),
} as unknown as Environments;
const call = { senderFrame: null } as never;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-reconcile-'));
});
afterEach(async () => {
  await services?.close();
  services = null;
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

type Status = DonationResource['attributes']['state']['processingStatus'];
const resource = (id: string, status: Status, bulkId: string | null = 'b1'): DonationResource => ({
  type: 'donations',
  id,
  attributes: {
    destination: { recipientId: 'r-1' },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
    state: { processingStatus: status, statusLastUpdated: '2026-11-01T00:00:00.000Z' },
    bulkId,
  },
});

/** The store as earlier listings left it. */
async function seed(...donations: DonationResource[]): Promise<void> {
  const store = await DonationStore.open(join(dir, 'reconcile', 'donations-production.json'));
  for (const d of donations) store.record(d, null, '2026-11-02T00:00:00.000Z');
  await store.save();
}

/** A ledger sharing doing what working alone does, save what a test gives it. */
function sharing(over: Partial<LedgerSharing> = {}): LedgerSharing {
  return { ...localLedgerSharing, ...over };
}

function start(ledgerSharing?: LedgerSharing): ReconcileServices {
  services = createReconcileServices({
    dataDir: dir,
    environments,
    events: new EventBus(),
    now: () => NOW,
    ...(ledgerSharing ? { sharing: ledgerSharing } : {}),
  });
  return services;
}

describe('the reconcile services with a ledger sharing', () => {
  it('dismisses alone with this computer’s time and reason', async () => {
    await seed(resource('d1', 'DECLINED'));
    const view = await start().handlers['donations.dismiss']({ donationId: 'd1', reason: 'Closed' }, call);
    expect(view.resolution).toEqual({ kind: 'dismissed', at: '2026-11-26T12:00:00.000Z', reason: 'Closed' });
  });

  it('keeps a colleague’s earlier dismissal, saying who', async () => {
    await seed(resource('d1', 'DECLINED'));
    const dismiss = vi.fn(() =>
      Promise.resolve({ at: '2026-11-25T09:00:00.000Z', reason: 'Paid by cheque', by: 'bob' }),
    );
    const view = await start(sharing({ dismiss })).handlers['donations.dismiss'](
      { donationId: 'd1', reason: 'Closed' },
      call,
    );
    expect(dismiss).toHaveBeenCalledWith('d1', 'Closed');
    expect(view.resolution).toEqual({
      kind: 'dismissed',
      at: '2026-11-25T09:00:00.000Z',
      reason: 'Paid by cheque',
      by: 'bob',
    });
  });

  it('refuses to dismiss what is not declined before asking the team', async () => {
    await seed(resource('d1', 'CLEARED'));
    const dismiss = vi.fn(localLedgerSharing.dismiss);
    await expect(
      start(sharing({ dismiss })).handlers['donations.dismiss']({ donationId: 'd1', reason: 'x' }, call),
    ).rejects.toMatchObject({ code: 'NOT_DECLINED' });
    expect(dismiss).not.toHaveBeenCalled();
  });

  it('shows colleagues’ corrections of the open declined donations on a page', async () => {
    await seed(resource('d1', 'DECLINED'), resource('d2', 'CLEARED'));
    const correctionsElsewhere = vi.fn((ids: readonly string[]) =>
      Promise.resolve(
        new Map(
          ids.map((id) => [
            id,
            {
              by: 'alice',
              computer: 'alice-pc',
              since: 'x',
              state: 'in-progress' as const,
              replacementId: null,
            },
          ]),
        ),
      ),
    );
    // Colleagues' bulk b1 joins the ledger, so the page of every upload lists its donations.
    const bulk: SharedBulk = {
      environmentKey: 'k',
      bulkId: 'b1',
      uploadId: 'u1',
      part: 0,
      uploadCreatedAt: '2026-11-01T00:00:00.000Z',
      partTotals: [{ currencyCode: 'USD', count: 2, amount: 200 }],
      state: 'PROCESSED',
      takenTotals: [{ currencyCode: 'USD', count: 2, amount: 200 }],
      workspaceName: 'November',
      sentBy: 'alice',
      computer: 'alice-pc',
      updatedAt: '2026-11-01T00:05:00.000Z',
    };
    const reconcile = start(
      sharing({
        correctionsElsewhere,
        colleaguesBulks: () => Promise.resolve({ server: 's', bulks: [bulk] }),
      }),
    );
    const page = await reconcile.handlers['donations.page']({ limit: 10, offset: 0 }, call);
    expect(page.donations.map((d) => [d.id, d.correctionElsewhere?.by ?? null])).toEqual([
      ['d1', 'alice'],
      ['d2', null],
    ]);
    expect(correctionsElsewhere).toHaveBeenCalledWith(['d1']);
    const summary = await reconcile.handlers['donations.summary']({}, call);
    expect(summary.uploads.map((u) => u.sentElsewhere)).toEqual([{ by: 'alice', computer: 'alice-pc' }]);
  });

  it('claims an upload’s replacements with the team only for an upload', async () => {
    await seed(resource('d1', 'DECLINED'));
    const claimForUpload = vi.fn(() => Promise.resolve());
    const reconcile = start(sharing({ claimForUpload }));
    const rows = [{ rowKey: 0, rowNumber: 2, donationId: 'd1' }];
    await reconcile.checkReplacements(rows);
    expect(claimForUpload).not.toHaveBeenCalled();
    await reconcile.checkReplacements(rows, 'u1');
    expect(claimForUpload).toHaveBeenCalledWith('u1', rows);
  });

  it('a refresh publishes first, then takes in what colleagues closed', async () => {
    await seed(resource('d1', 'DECLINED'), resource('d2', 'DECLINED'), resource('d3', 'DECLINED'));
    const order: string[] = [];
    const publishBulks = vi.fn(async (ours: Parameters<LedgerSharing['publishBulks']>[0]) => {
      order.push('publish');
      expect((await ours()).environment).toBe('production');
    });
    const closedElsewhere = vi.fn((open: () => string[]) => {
      order.push('closed');
      expect(open()).toEqual(['d1', 'd2', 'd3']);
      return Promise.resolve({
        replaced: [{ donationId: 'd1', replacementId: 'r1', by: 'alice' }],
        dismissed: [{ donationId: 'd2', at: '2026-11-25T09:00:00.000Z', reason: 'Gone', by: 'bob' }],
      });
    });
    const shareOneByOne = vi.fn(() => {
      order.push('oneByOne');
      return Promise.resolve([]);
    });
    const reconcile = start(sharing({ publishBulks, closedElsewhere, shareOneByOne }));
    const listed = await reconcile.handlers['donations.refresh']({}, call);
    expect(order).toEqual(['publish', 'oneByOne', 'closed']);
    expect(Object.fromEntries(listed.donations.map((d) => [d.id, d.resolution]))).toEqual({
      d1: { kind: 'replaced', at: '2026-11-26T12:00:00.000Z', replacementId: 'r1', by: 'alice' },
      d2: { kind: 'dismissed', at: '2026-11-25T09:00:00.000Z', reason: 'Gone', by: 'bob' },
      d3: null,
    });
  });

  it('cancels only a listing that runs', async () => {
    expect(await start().handlers['donations.cancel']({ jobId: 'none' }, call)).toEqual({ cancelled: false });
  });
});

describe('the month report’s refresh', () => {
  it('reads what may have changed but hands back no list of donations (the history can be long)', async () => {
    // Every donation final: the refresh has nothing to ask the service.
    await seed(resource('d1', 'CLEARED'), resource('d2', 'DECLINED'), resource('d3', 'CLEARED'));
    const pages = vi.spyOn(DonationStore.prototype, 'page');
    const refreshed = vi.spyOn(DonationStore.prototype, 'markRefreshed');
    try {
      const reconcile = start();
      const report = await reconcile.handlers['donations.report']({ month: '2026-11', refresh: true }, call);
      expect(refreshed).toHaveBeenCalledTimes(1);
      expect(report.lastRefreshAt).toBe('2026-11-26T12:00:00.000Z');
      // Every donation read out of the database page by page (5,000 at a time) was the whole history.
      expect(pages.mock.calls.filter(([q]) => q.limit === undefined || q.limit > 1000)).toEqual([]);
      // The same report as read from what the refresh stored.
      const cached = await reconcile.handlers['donations.report']({ month: '2026-11' }, call);
      expect({ ...cached, generatedAt: null }).toEqual({ ...report, generatedAt: null });
    } finally {
      pages.mockRestore();
      refreshed.mockRestore();
    }
  });
});
