import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DonationResource } from '../../../shared/bulk-file/serviceShapes';
import { closeDatabase } from '../db/deskDatabase';
import type { Environments } from '../environments/environments';
import { EventBus } from '../core/eventBus';
import {
  correctFromWorkspaceJob,
  fixInGrid,
  refuseIfInUpload,
  type CreateWorkspace,
} from './correctionHandlers';
import { DonationStore } from './donationStore';
import { localLedgerSharing } from './ledgerSharing';
import { createRuntime, type ReconcileRuntime } from './reconcileContext';
import type { InUpload } from './replacements';

let dir: string;
let rt: ReconcileRuntime;
const environments = {
  describe: () => Promise.resolve({ id: 'production', baseUrl: 'https://api.example.org', emulated: false }),
  resolve: () => Promise.reject(new Error('No call to the service is expected here.')),
} as unknown as Environments;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-corrections-'));
  rt = createRuntime({
    dataDir: dir,
    environments,
    events: new EventBus(),
    sharing: localLedgerSharing,
    now: () => Date.parse('2026-11-26T12:00:00.000Z'),
  });
  const store = await DonationStore.open(join(dir, 'reconcile', 'donations-production.json'));
  for (const [id, status] of [
    ['d1', 'DECLINED'],
    ['d2', 'DECLINED'],
    ['d3', 'CLEARED'],
  ] as const) {
    store.record(resource(id, status), null, '2026-11-02T00:00:00.000Z');
  }
  await store.save();
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

function resource(
  id: string,
  status: DonationResource['attributes']['state']['processingStatus'],
): DonationResource {
  return {
    type: 'donations',
    id,
    attributes: {
      destination: { recipientId: 'r-1' },
      funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 },
      state: { processingStatus: status, statusLastUpdated: '2026-11-01T00:00:00.000Z' },
      bulkId: 'b1',
    },
  };
}

describe('fixing declined donations in a grid', () => {
  it('makes one workspace of the open declined donations, each once, named by their count and the day', async () => {
    const createWorkspace = vi.fn<CreateWorkspace>(() => Promise.resolve({ id: 'w1' }));
    const made = await fixInGrid(rt, createWorkspace, { donationIds: ['d1', 'd2', 'd1'] });
    expect(made).toEqual({
      workspaceId: 'w1',
      name: 'Corrections of 2 declined donations (2026-11-26)',
      rows: 2,
    });
    expect(createWorkspace.mock.calls[0]?.[0].source).toMatchObject({
      format: 'declined',
      sheet: 'Declined',
    });
  });

  it('refuses a donation that is not declined, and needs the Prepare workspaces', async () => {
    const createWorkspace = vi.fn<CreateWorkspace>(() => Promise.resolve({ id: 'w1' }));
    await expect(fixInGrid(rt, createWorkspace, { donationIds: ['d3'] })).rejects.toMatchObject({
      code: 'REPLACEMENT_REFUSED',
    });
    expect(createWorkspace).not.toHaveBeenCalled();
    await expect(fixInGrid(rt, undefined, { donationIds: ['d1'] })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    await expect(correctFromWorkspaceJob(rt, undefined, { workspaceId: 'w1' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
  });
});

describe('a declined donation in an upload', () => {
  it('is refused, naming the upload', () => {
    const inUploads = new Map<string, InUpload>([
      [
        'd1',
        { uploadId: 'u1', workspaceId: 'w1', workspaceName: 'November', createdAt: '2026-11-20T09:00:00Z' },
      ],
    ]);
    expect(() => refuseIfInUpload(inUploads, 'd1')).toThrow(/“November” \(2026-11-20\)/);
    expect(() => refuseIfInUpload(inUploads, 'd2')).not.toThrow();
  });
});
