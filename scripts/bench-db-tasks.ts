// The tasks `scripts/bench-db.mjs` times, each run in a process of its own (so its peak memory is its
// own): node tasks.cjs <task> <dataDir> [...]. Prints one JSON line of figures.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { DonationResource } from '../shared/bulk-file/serviceSchemas';
import { databaseOf } from '../electron/services/db/deskDatabase';
import { LedgerStore } from '../electron/services/ledger/ledgerStore';
import type { LedgerGroup, LedgerIntent } from '../electron/services/ledger/ledgerSchema';
import { DonationStore } from '../electron/services/reconcile/donationStore';

const [task = '', dataDir = '', ...rest] = process.argv.slice(2);
const ENVIRONMENT = 'offline';
const storePath = join(dataDir, 'reconcile', `donations-${ENVIRONMENT}.json`);
const MONTH_DAY = '2026-11-10';

function resource(
  i: number,
  bulkId: string,
  status: DonationResource['attributes']['state']['processingStatus'],
) {
  return {
    type: 'donations' as const,
    id: `don-${String(i).padStart(8, '0')}`,
    attributes: {
      destination: { recipientId: `250-${100000 + (i % 5000)}` },
      funds: {
        paymentType: 'DONATION_REPORT',
        currencyCode: i % 7 === 0 ? 'EUR' : 'USD',
        amount: 500 + (i % 9000),
      },
      donor: { fullName: `Employee ${i}`, email: `e${i}@example.org`, receipted: true },
      metadata: { ddRef: `ref-${i}`, employee: `E${i}` },
      state: { processingStatus: status, statusLastUpdated: `${MONTH_DAY}T12:00:00.000Z` },
      bulkId,
    },
  };
}

function peakMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function seed(total: number, bulks: number): Promise<void> {
  const started = performance.now();
  const perBulk = Math.ceil(total / bulks);
  const ledger = await LedgerStore.open(join(dataDir, 'uploads'));
  for (let b = 0; b < bulks; b++) {
    const rowKeys = Array.from({ length: perBulk }, (_, i) => i);
    const group: LedgerGroup = {
      id: `upload-${b}`,
      workspaceId: `ws-${b}`,
      workspaceName: `Month gifts ${b}`,
      createdAt: `${MONTH_DAY}T0${b % 10}:00:00.000Z`,
      environment: ENVIRONMENT,
      baseUrl: 'http://127.0.0.1:1',
      referenceKey: 'ddRef',
      parts: [
        {
          index: 0,
          rowKeys,
          rowNumbers: rowKeys.map((k) => k + 2),
          fingerprints: rowKeys.map((k) => `fp-${b}-${k}`),
          totals: [{ currencyCode: 'USD', count: perBulk, amount: 0 }],
          fileHash: 'ab',
          fileBytes: 1,
          file: `files/upload-${b}-0.json.gz`,
        },
      ],
      corrects: null,
      replaces: [],
      stopped: null,
    };
    const intent: LedgerIntent = {
      attemptId: `attempt-${b}`,
      serviceId: `bulk-${b}`,
      groupId: group.id,
      part: 0,
      state: 'PROCESSED',
      createdAt: group.createdAt,
      updatedAt: group.createdAt,
      expiresAt: null,
      timeline: [{ state: 'PROCESSED', at: group.createdAt }],
      counts: { uploaded: perBulk, accepted: perBulk, invalid: 0 },
      error: null,
      donationRowKeys: null,
      correctedByUpload: null,
    };
    await ledger.putGroup(group);
    await ledger.putIntent(intent);
  }
  await ledger.close();
  const store = await DonationStore.open(storePath);
  for (let i = 0; i < total; i++) {
    const b = Math.floor(i / perBulk);
    store.record(
      resource(i, `bulk-${b}`, 'INITIATED'),
      { workspaceId: `ws-${b}`, rowKey: i % perBulk, rowNumber: (i % perBulk) + 2, method: 'reference' },
      `${MONTH_DAY}T13:00:00.000Z`,
    );
    if (i % 20_000 === 19_999) await store.save();
  }
  store.markRefreshed(`${MONTH_DAY}T13:00:00.000Z`);
  await store.save();
  databaseOf(dataDir).db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const bytes = statSync(join(dataDir, 'desk.db')).size;
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, bytes, peakMb: peakMb() }));
}

/**
 * The store's side of refreshing one upload's donations from the service: the rows already tied
 * (to not hand them out again), every donation recorded in its new state, saved every 2 s and at
 * the end, as `fetchInto` does, with the network left out.
 */
async function refresh(bulkId: string): Promise<void> {
  const started = performance.now();
  const store = await DonationStore.open(storePath);
  const { open } = store.bulkStates();
  const claimed = store.linkedRows([bulkId]).length;
  // The donations the service would list for this bulk (seeded as consecutive numbers per bulk).
  const perBulk = store.count({ bulkIds: [bulkId] });
  const first = Number(bulkId.slice('bulk-'.length)) * perBulk;
  const ids = Array.from({ length: perBulk }, (_, i) => first + i);
  let lastSave = performance.now();
  const at = new Date().toISOString();
  for (const i of ids) {
    store.record(resource(i, bulkId, 'CLEARED'), null, at);
    if (performance.now() - lastSave >= 2000) {
      await store.save();
      lastSave = performance.now();
    }
  }
  store.markRefreshed(at);
  await store.save();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({ seconds, donations: ids.length, claimed, openBulks: open.length, peakMb: peakMb() }),
  );
}

/** Reconcile's first page: opening the store, the count, 100 donations and the totals. */
async function firstPage(): Promise<void> {
  const started = performance.now();
  const store = await DonationStore.open(storePath);
  const count = store.count({});
  const page = store.page({ limit: 100, order: 'firstSeen' });
  const totals = store.totals();
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, count, page: page.length, totals: totals.length, peakMb: peakMb() }));
}

/** Every donation read as the call sites in reconcile/index.ts still do (store.all()). */
async function everything(): Promise<void> {
  const started = performance.now();
  const store = await DonationStore.open(storePath);
  const count = store.all().length;
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, count, peakMb: peakMb() }));
}

const tasks: Record<string, () => Promise<void>> = {
  seed: () => seed(Number(rest[0] ?? 1_000_000), Number(rest[1] ?? 10)),
  refresh: () => refresh(rest[0] ?? 'bulk-0'),
  firstPage,
  all: everything,
};
const run = tasks[task];
if (!run) {
  console.error(`unknown task ${task}`);
  process.exit(2);
}
run().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
