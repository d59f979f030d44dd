import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { REPLACES_KEY } from '../../../shared/mapping';
import type { ServiceClient } from '../api/serviceClient';
import { closeDatabase } from '../db/deskDatabase';
import { EventBus } from '../core/eventBus';
import { madeHere, openTargets, readInto, refreshSingles } from './donationReading';
import { DonationStore } from './donationStore';
import { localLedgerSharing, type LedgerSharing } from './ledgerSharing';
import type { LedgerSummaryView, LedgerView } from './ledgerView';
import type { ReconcileRuntime } from './reconcileContext';

let dir: string;
let store: DonationStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-reading-'));
  store = await DonationStore.open(join(dir, 'reconcile', 'donations-production.json'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

type Status = DonationResource['attributes']['state']['processingStatus'];
const resource = (
  id: string,
  status: Status,
  bulkId: string | null = 'b1',
  metadata?: Record<string, string>,
): DonationResource => ({
  type: 'donations',
  id,
  attributes: {
    destination: { recipientId: 'r-1' },
    funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
    state: { processingStatus: status, statusLastUpdated: '2026-11-01T00:00:00.000Z' },
    bulkId,
    ...(metadata ? { metadata } : {}),
  },
});

const noLedger: LedgerView = { groups: [], intents: [], bulks: [], byBulkId: new Map() };
const AT = '2026-11-26T12:00:00.000Z';

function runtime(client: Partial<ServiceClient>, sharing: Partial<LedgerSharing> = {}) {
  const events = new EventBus();
  const statuses: string[] = [];
  events.subscribe((name, payload) => {
    if (name === 'job.status') statuses.push((payload as { status: string }).status);
  });
  const rt = {
    client: client as ServiceClient,
    events,
    sharing: { ...localLedgerSharing, ...sharing },
    running: new Map(),
    now: () => Date.parse(AT),
    at: () => AT,
  } as unknown as ReconcileRuntime;
  return { rt, statuses };
}

const onePage = (data: DonationResource[]) => ({
  donationPage: vi.fn(() => Promise.resolve({ page: { data, meta: { count: data.length } }, next: null })),
});

describe('reading a listing into the store', () => {
  it('records each donation, closes the declined one a correction replaces, and finishes its claim', async () => {
    store.record(resource('d1', 'DECLINED'), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    const finishCorrections = vi.fn(() => Promise.resolve());
    const { rt, statuses } = runtime(
      onePage([resource('d2', 'PAID', 'b2', { [REPLACES_KEY]: 'd1' }), resource('d3', 'CLEARED', 'b2')]),
      { finishCorrections },
    );
    expect(await readInto(rt, store, noLedger, ['b2'], { jobId: 'j1' })).toBe(1);
    expect(store.get('d1')?.resolution).toEqual({ kind: 'replaced', at: AT, replacementId: 'd2' });
    expect(store.get('d2')?.replaces).toBe('d1');
    expect(store.get('d3')?.resource.attributes.state.processingStatus).toBe('CLEARED');
    expect(store.lastRefreshAt()).toBe(AT);
    expect(finishCorrections).toHaveBeenCalledWith([['d1', 'd2']]);
    expect(statuses).toEqual(['running', 'succeeded']);
    expect(rt.running.size).toBe(0);
  });

  it('keeps only what this app made when reading the whole account', async () => {
    const { rt } = runtime(onePage([resource('x1', 'PAID', 'elsewhere'), resource('d1', 'PAID', 'b1')]));
    await readInto(rt, store, noLedger, [undefined], { onlyOurs: new Set(['b1']) });
    expect(store.get('x1')).toBeUndefined();
    expect(store.get('d1')).toBeDefined();
  });

  it('refuses a job id already running', async () => {
    const { rt } = runtime(onePage([]));
    rt.running.set('j1', new AbortController());
    await expect(readInto(rt, store, noLedger, ['b1'], { jobId: 'j1' })).rejects.toMatchObject({
      code: 'BUSY',
    });
  });

  it('takes in the declined donations colleagues closed after a listing', async () => {
    store.record(resource('d1', 'DECLINED'), null, '2026-11-02T00:00:00.000Z');
    store.record(resource('d2', 'DECLINED'), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    const { rt } = runtime(onePage([]), {
      closedElsewhere: (open) => {
        expect(open()).toEqual(['d1', 'd2']);
        return Promise.resolve({
          replaced: [{ donationId: 'd1', replacementId: 'r1', by: 'alice' }],
          dismissed: [{ donationId: 'd2', at: '2026-11-25T00:00:00.000Z', reason: 'Gone', by: 'bob' }],
        });
      },
    });
    await readInto(rt, store, noLedger, [], {});
    expect(store.get('d1')?.resolution).toEqual({
      kind: 'replaced',
      at: AT,
      replacementId: 'r1',
      by: 'alice',
    });
    expect(store.get('d2')?.resolution).toMatchObject({ kind: 'dismissed', reason: 'Gone', by: 'bob' });
  });
});

describe('donations sent one by one', () => {
  it('reads colleagues’ from the service, counted from when they were sent, and follows open ones', async () => {
    store.record(resource('d1', 'DECLINED'), null, '2026-11-02T00:00:00.000Z');
    store.record(resource('s1', 'INITIATED', null), null, '2026-11-02T00:00:00.000Z');
    await store.save();
    const getDonation = vi.fn((id: string) =>
      Promise.resolve(
        id === 'c1'
          ? resource('c1', 'CLEARED', null, { [REPLACES_KEY]: 'd1' })
          : resource(id, 'CLEARED', null),
      ),
    );
    const theirs = { donationId: 'c1', kind: 'replaces' as const, sentAt: '2026-11-20T00:00:00.000Z' };
    const { rt } = runtime(
      { getDonation },
      { shareOneByOne: () => Promise.resolve([{ ...theirs, sentBy: 'alice', computer: 'alice-pc' }]) },
    );
    await refreshSingles(rt, store);
    expect(store.get('c1')?.firstSeenAt).toBe('2026-11-20T00:00:00.000Z');
    expect(store.get('d1')?.resolution).toEqual({
      kind: 'replaced',
      at: AT,
      replacementId: 'c1',
      by: 'alice',
    });
    expect(store.get('s1')?.resource.attributes.state.processingStatus).toBe('CLEARED');
    expect(getDonation.mock.calls.map((c) => c[0])).toEqual(['c1', 's1']);
  });
});

describe('what a refresh must read', () => {
  it('bulks with donations not final, and bulks that created donations but were never listed', () => {
    store.record(resource('d1', 'PAID', 'b1'), null, AT);
    store.record(resource('d2', 'CLEARED', 'b2'), null, AT);
    return store.save().then(() => {
      const ledger = {
        bulks: [
          { bulkId: 'b3', group: { environment: 'production' }, intent: { state: 'PROCESSED' } },
          {
            bulkId: 'b4',
            group: { environment: 'production' },
            intent: { state: 'ERROR', donationRowKeys: [] },
          },
          { bulkId: 'b5', group: { environment: 'other' }, intent: { state: 'PROCESSED' } },
        ],
      } as unknown as LedgerSummaryView;
      expect(openTargets(store, ledger, 'production').bulkIds.sort()).toEqual(['b1', 'b3']);
    });
  });

  it('a donation this app made: in one of its bulks, or marked as its own', () => {
    expect(madeHere(resource('d1', 'PAID', 'b1'), new Set(['b1']))).toBe(true);
    expect(madeHere(resource('d1', 'PAID', 'b9'), new Set(['b1']))).toBe(false);
    expect(madeHere(resource('d1', 'PAID', null, { [REPLACES_KEY]: 'd0' }), new Set())).toBe(true);
  });
});
