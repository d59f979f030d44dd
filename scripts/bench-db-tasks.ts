// The tasks `scripts/bench-db.mjs` times, each run in a process of its own (so its peak memory is its
// own): node tasks.cjs <task> <dataDir> [...]. Prints one JSON line of figures.
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DonationResource } from '../shared/bulk-file/serviceShapes';
import { databaseOf } from '../electron/services/db/deskDatabase';
import { LedgerStore } from '../electron/services/ledger/ledgerStore';
import type { LedgerGroup, LedgerIntent } from '../electron/services/ledger/ledgerShapes';
import { DonationStore } from '../electron/services/reconcile/donationStore';
import { createReconcileServices } from '../electron/services/reconcile';
import type { Environments } from '../electron/services/environments/environments';
import { EventBus } from '../electron/services/core/eventBus';

const [task = '', dataDir = '', ...rest] = process.argv.slice(2);
const ENVIRONMENT = 'offline';
const storePath = join(dataDir, 'reconcile', `donations-${ENVIRONMENT}.json`);
const MONTH_DAY = '2026-11-10';

/**
 * DESK_BENCH_METADATA="100x190": that many metadata pairs of that many characters each (the
 * service's limits), the row reference among them; default one pair beside the reference.
 */
const [metadataPairs, metadataChars] = (process.env.DESK_BENCH_METADATA ?? '').split('x').map(Number) as [
  number,
  number,
];

function extraMetadata(i: number): Record<string, string> {
  if (!metadataPairs) return { employee: `E${i}` };
  const pairs: Record<string, string> = {};
  for (let k = 1; k < metadataPairs; k++) pairs[`field${k}`] = `${i}-${k}-`.padEnd(metadataChars, 'x');
  return pairs;
}

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
      metadata: { ddRef: `ref-${i}`, ...extraMetadata(i) },
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
 * The store's side of refreshing one upload's donations from the service, as `fetchInto` does with
 * the network left out: the open bulks, the rows already tied (to not hand them out again), then
 * per page of 250 the page's donations read in one query (`prefetch`), each one looked up (`known`)
 * and recorded in its new state, saved every 2 s or 10,000 changes held and at the end, then the
 * WAL emptied (`settle`). `all`: every donation's state changed; `few`: 1 in 100, the rest as stored.
 */
async function refresh(bulkId: string, changed: 'all' | 'few'): Promise<void> {
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
  for (let start = 0; start < ids.length; start += 250) {
    // 'few': 1 in 100 cleared, the others answered exactly as seeded (INITIATED, same update time).
    const page = ids
      .slice(start, start + 250)
      .map((i) => resource(i, bulkId, changed === 'all' || i % 100 === 0 ? 'CLEARED' : 'INITIATED'));
    store.prefetch(page.map((r) => r.id));
    for (const r of page) {
      const known = store.known(r.id);
      store.record(r, known?.row ?? null, at);
    }
    if (performance.now() - lastSave >= 2000 || store.pending >= 10_000) {
      await store.save();
      lastSave = performance.now();
    }
  }
  store.markRefreshed(at);
  await store.save();
  store.settle();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      donations: ids.length,
      changed,
      claimed,
      openBulks: open.length,
      peakMb: peakMb(),
    }),
  );
}

/** The Reconcile services over the data folder, as main builds them (no service is called). */
function services() {
  const environments = {
    describe: async () => ({ id: ENVIRONMENT }),
    resolve: async () => {
      throw new Error('The bench never calls the service.');
    },
  } as unknown as Environments;
  return createReconcileServices({ dataDir, environments, events: new EventBus() });
}

/**
 * Reconcile's first page on screen, as the page asks for it when the area opens: the first 50
 * donations with their count, the declined list (open first) and the totals with every upload's
 * control totals, through the services' handlers (everything but the IPC hop and React).
 */
async function firstPage(warm: boolean): Promise<void> {
  const { handlers } = services();
  const context = { transport: 'ipc' } as never;
  const open = () =>
    Promise.all([
      handlers['donations.page']({ offset: 0, limit: 50 }, context),
      handlers['donations.page']({ status: 'DECLINED', order: 'openFirst', offset: 0, limit: 500 }, context),
      handlers['donations.summary']({}, context),
    ]);
  // Warm: the area opened again in a running app (the database open, the ledger already read).
  if (warm) await open();
  const started = performance.now();
  const [page, declined, summary] = await open();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      count: page.total,
      page: page.donations.length,
      declined: declined.total,
      uploads: summary.uploads.length,
      peakMb: peakMb(),
    }),
  );
}

/** The month-end report as the screen asks for it (no refresh first), through the services' handler. */
async function monthReport(month: string): Promise<void> {
  const started = performance.now();
  const { handlers } = services();
  const report = await handlers['donations.report']({ month }, { transport: 'ipc' } as never);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    JSON.stringify({
      seconds,
      uploads: report.uploads.length,
      reconciled: report.reconciled,
      peakMb: peakMb(),
    }),
  );
}

/**
 * The store side of `donation-desk donations --bulk ID --json`: what the command does after the
 * service read, with the same calls (cached list pages of 1,000 through the cursor) and the JSON
 * written as it goes to a file (stdout in the command), waiting for the stream to drain.
 */
async function listJson(bulkId: string, out: string): Promise<void> {
  const started = performance.now();
  const { handlers } = services();
  const context = { transport: 'cli' } as never;
  const stream = createWriteStream(out);
  const write = async (text: string) => {
    if (!stream.write(`${text}\n`))
      await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  };
  await write('{\n  "donations": [');
  let written = 0;
  let after: { firstSeenAt: string; seq: number } | undefined;
  for (;;) {
    const page = await handlers['donations.list'](
      { bulkIds: [bulkId], cached: true, limit: 1000, ...(after ? { after } : {}) },
      context,
    );
    for (const d of page.donations) await write(`${written++ > 0 ? ',' : ''}    ${JSON.stringify(d)}`);
    if (!page.next) break;
    after = page.next;
  }
  await write('  ]\n}');
  await new Promise<void>((resolve) => stream.end(() => resolve()));
  const seconds = (performance.now() - started) / 1000;
  console.log(JSON.stringify({ seconds, donations: written, bytes: statSync(out).size, peakMb: peakMb() }));
}

const tasks: Record<string, () => Promise<void>> = {
  seed: () => seed(Number(rest[0] ?? 1_000_000), Number(rest[1] ?? 10)),
  refresh: () => refresh(rest[0] ?? 'bulk-0', rest[1] === 'few' ? 'few' : 'all'),
  firstPage: () => firstPage(false),
  firstPageWarm: () => firstPage(true),
  report: () => monthReport(rest[0] ?? '2026-11'),
  listJson: () => listJson(rest[0] ?? 'bulk-0', rest[1] ?? join(dataDir, 'list.json')),
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
