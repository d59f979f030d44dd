/*
 * For unit tests of the upload flow and its send gates: a real ledger in a temporary folder, the
 * basics around it with a fixed service and clock, and upload and intent records to vary.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environments } from '../environments/environments';
import { MaintenanceWatch } from '../api/maintenanceWatch';
import { EventBus } from '../core/eventBus';
import type { LedgerApproval, LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import { LedgerStore } from '../ledger/ledgerStore';
import type { PlatformAdapter } from '../core/platform';
import type { UploadBasics } from './basics';
import type { ServiceInUse } from './sendGate';

export const SERVICE: ServiceInUse = { id: 'sandbox', baseUrl: 'https://api.example.org', emulated: false };

export const NOW = Date.parse('2026-03-10T12:00:00.000Z');

/** Basics over a fresh ledger; `close` removes everything. Fields may be replaced by `overrides`. */
export async function testBasics(overrides: Partial<UploadBasics> = {}): Promise<{
  basics: UploadBasics;
  notices: Array<{ title: string; body: string }>;
  close(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'upload-unit-'));
  const ledger = await LedgerStore.open(join(dir, 'uploads'));
  const notices: Array<{ title: string; body: string }> = [];
  const environments = {
    resolve: async () => ({ info: { ...SERVICE, label: 'Sandbox' } }),
    describe: async () => ({ ...SERVICE, label: 'Sandbox' }),
    maintenance: new MaintenanceWatch(),
  } as unknown as Environments;
  const platform = {
    env: {},
    notify: (title: string, body: string) => notices.push({ title, body }),
  } as unknown as PlatformAdapter;
  const basics: UploadBasics = {
    ledger,
    client: {} as UploadBasics['client'],
    events: new EventBus(),
    workspaces: {} as UploadBasics['workspaces'],
    environments,
    platform,
    now: () => NOW,
    sleep: async () => undefined,
    retry: { attempts: 1, baseMs: 1, maxMs: 1 } as unknown as UploadBasics['retry'],
    poll: { minMs: 1_000, maxMs: 60_000, factor: 1.6 },
    limits: { maxRows: 1_000, maxBytes: 10_000_000 },
    uploadGraceMs: 0,
    startedAt: NOW,
    ...overrides,
  };
  return {
    basics,
    notices,
    close: async () => {
      await ledger.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A recorded upload of one part with rows 1 and 2, alone unless `approval` is given. */
export function testGroup(id: string, change: Partial<LedgerGroup> = {}): LedgerGroup {
  return {
    id,
    workspaceId: 'ws-1',
    workspaceName: 'March gifts',
    createdAt: new Date(NOW).toISOString(),
    environment: SERVICE.id,
    baseUrl: SERVICE.baseUrl,
    referenceKey: null,
    parts: [
      {
        index: 0,
        rowKeys: [1, 2],
        rowNumbers: [2, 3],
        fingerprints: ['fp-1', 'fp-2'],
        totals: [{ currencyCode: 'USD', amount: 3000, count: 2 }],
        fileHash: 'a'.repeat(64),
        fileBytes: 100,
        file: `files/${id}-0.json.gz`,
      },
    ],
    corrects: null,
    replaces: [],
    stopped: null,
    approval: null,
    ...change,
  };
}

/** A team approval as the ledger records it, in state `state`. */
export function testApproval(
  state: LedgerApproval['state'],
  change: Partial<LedgerApproval> = {},
): LedgerApproval {
  return {
    server: 'db.example.org:5432/desk',
    fileSha256: 'a'.repeat(64),
    needed: true,
    state,
    preparer: 'alice',
    decidedBy: null,
    decidedAt: null,
    reason: null,
    ...change,
  };
}

/** An attempt for part `part` of upload `groupId`. */
export function testIntent(
  groupId: string,
  state: LedgerIntent['state'],
  change: Partial<LedgerIntent> = {},
): LedgerIntent {
  const at = new Date(NOW).toISOString();
  return {
    attemptId: `${groupId}-attempt`,
    serviceId: state === 'pending' || state === 'creating' ? null : `bulk-${groupId}`,
    groupId,
    part: 0,
    state,
    createdAt: at,
    updatedAt: at,
    expiresAt: null,
    timeline: [],
    counts: {},
    error: null,
    donationRowKeys: null,
    correctedByUpload: null,
    ...change,
  };
}
