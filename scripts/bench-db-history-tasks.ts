// Seeding for `scripts/bench-db-history.mjs`, run in a process of its own:
//   node tasks.cjs ledger <dataDir> <total> <bulks> <environment> <createdAtIso>
//   node tasks.cjs emulator <emulatorDir> <total> <bulks> <createdAtMs> <nowMs>
// Prints one JSON line of figures.
//
// The data folder gets the upload ledger of ten uploads as the app writes it after ten CLI uploads
// (one part each, its row keys and numbers), through the app's LedgerStore; no donation is stored.
// The emulator gets the donations those uploads created, written straight into its own
// persistence (`donations.log`, the format `emulator/core.ts` appends and reloads at start): one
// line per donation, the bulks' donations in creation order, each carrying the upload's reference
// (`<workspaceRef>:<rowKey>`) so the refresh ties it to its row as it would a real upload's.
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerStore } from '../electron/services/ledger/ledgerStore';
import type { LedgerGroup, LedgerIntent } from '../electron/services/ledger/ledgerShapes';

const [task = '', dir = '', ...rest] = process.argv.slice(2);

function peakMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Stable, UUID-shaped ids (the service's ids are UUIDs). */
const uuid = (kind: number, n: number): string =>
  `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const workspaceIdOf = (b: number): string => uuid(0xa0 + b, b);
export const bulkIdOf = (b: number): string => uuid(0xb0, b);
const workspaceRefOf = (b: number): string => workspaceIdOf(b).replace(/-/g, '').slice(0, 8);

/** The currency and amount (minor units) of donation i. */
const fundsOf = (i: number) => ({ currencyCode: i % 7 === 0 ? 'EUR' : 'USD', amount: 500 + (i % 9000) });

async function ledger(total: number, bulks: number, environment: string, createdAt: string): Promise<void> {
  const started = performance.now();
  const perBulk = Math.ceil(total / bulks);
  const store = await LedgerStore.open(join(dir, 'uploads'));
  for (let b = 0; b < bulks; b++) {
    const rows = Math.min(perBulk, total - b * perBulk);
    const rowKeys = Array.from({ length: rows }, (_, i) => i);
    // The control totals the upload recorded: what the emulator's donations of this bulk add up to.
    const totals = new Map<string, { currencyCode: string; count: number; amount: number }>();
    for (let row = 0; row < rows; row++) {
      const { currencyCode, amount } = fundsOf(b * perBulk + row);
      const t = totals.get(currencyCode) ?? { currencyCode, count: 0, amount: 0 };
      t.count++;
      t.amount += amount;
      totals.set(currencyCode, t);
    }
    const at = new Date(Date.parse(createdAt) + b * 60_000).toISOString();
    const group: LedgerGroup = {
      id: uuid(0xc0, b),
      workspaceId: workspaceIdOf(b),
      workspaceName: `Month gifts ${b + 1}`,
      createdAt: at,
      environment,
      baseUrl: 'http://127.0.0.1:1',
      referenceKey: 'ddRef',
      parts: [
        {
          index: 0,
          rowKeys,
          rowNumbers: rowKeys.map((k) => k + 2),
          // As long as the app's (fnv1a64, 16 hex digits).
          fingerprints: rowKeys.map((k) => (b * 10_000_000 + k).toString(16).padStart(16, '0')),
          totals: [...totals.values()],
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
      attemptId: uuid(0xd0, b),
      serviceId: bulkIdOf(b),
      groupId: group.id,
      part: 0,
      state: 'PROCESSED',
      createdAt: at,
      updatedAt: at,
      expiresAt: null,
      timeline: [{ state: 'PROCESSED', at }],
      counts: { uploaded: rows, accepted: rows, invalid: 0 },
      error: null,
      donationRowKeys: null,
      correctedByUpload: null,
    };
    await store.putGroup(group);
    await store.putIntent(intent);
  }
  await store.close();
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, peakMb: peakMb() }));
}

/**
 * The donations in the emulator's log. States at the emulator's frozen clock (`nowMs`): most in
 * progress (so a later refresh reads them again) until the clock passes a year on, 1 in 4 cleared,
 * 1 in 50 declined with a reason.
 */
async function emulator(total: number, bulks: number, createdAtMs: number, nowMs: number): Promise<void> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const out = createWriteStream(join(dir, 'donations.log'));
  const perBulk = Math.ceil(total / bulks);
  const later = nowMs + 365 * 86_400_000;
  for (let i = 0; i < total; i++) {
    const b = Math.floor(i / perBulk);
    const row = i - b * perBulk;
    const at = createdAtMs + b * 60_000 + 30_000;
    const input = {
      destination: { recipientId: `250-${String(100000000 + (i % 5000)).slice(0, 9)}` },
      funds: { paymentType: 'DONATION_REPORT', ...fundsOf(i), source: 'COMPANY' },
      donor: { receipted: true, fullName: `Employee ${i}`, email: `e${i}@example.org` },
      metadata: { ddRef: `${workspaceRefOf(b)}:${row}`, employee: `E${i}` },
    };
    const timeline: unknown[] = [{ at, status: 'ACCEPTED' }];
    if (i % 50 === 7) {
      timeline.push({
        at: at + 60_000,
        status: 'DECLINED',
        errors: [
          {
            status: '422',
            code: 'CAUSE_INACTIVE',
            title: 'Cause cannot receive donations',
            detail: 'The cause is not active.',
            source: { pointer: '/data/attributes/destination/recipientId' },
          },
        ],
      });
    } else if (i % 4 === 0) {
      timeline.push(
        { at: at + 60_000, status: 'INITIATED' },
        { at: at + 120_000, status: 'PAID', payable: 'EFT' },
      );
      timeline.push({ at: at + 180_000, status: 'CLEARED', receiptId: `R-${i}` });
    } else {
      timeline.push(
        { at: at + 60_000, status: 'INITIATED' },
        { at: later, status: 'PAID', payable: 'EFT' },
        { at: later + 60_000, status: 'CLEARED', receiptId: `R-${i}` },
      );
    }
    const line = `${JSON.stringify([i + 1, uuid(0xe0, i), i + 1, at, input, bulkIdOf(b), timeline])}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  console.log(JSON.stringify({ seconds: (performance.now() - started) / 1000, peakMb: peakMb() }));
}

const tasks: Record<string, () => Promise<void>> = {
  ledger: () =>
    ledger(Number(rest[0]), Number(rest[1]), rest[2] ?? 'sandbox', rest[3] ?? new Date().toISOString()),
  emulator: () => emulator(Number(rest[0]), Number(rest[1]), Number(rest[2]), Number(rest[3])),
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
