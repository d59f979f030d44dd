import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDatabase } from '../db/deskDatabase';
import type { Environments } from '../environments/environments';
import { EventBus } from '../core/eventBus';
import { localLedgerSharing, sentElsewhere, type SharedBulk } from './ledgerSharing';
import { createRuntime, ledgerBulkIds } from './reconcileContext';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-context-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

const environments = {
  describe: () => Promise.resolve({ id: 'production', baseUrl: 'https://api.example.org', emulated: false }),
  resolve: () => Promise.reject(new Error('No call to the service is expected here.')),
} as unknown as Environments;

const erroredBulk: SharedBulk = {
  environmentKey: 'k',
  bulkId: 'b7',
  uploadId: 'u7',
  part: 0,
  uploadCreatedAt: '2026-11-20T09:00:00.000Z',
  partTotals: [{ currencyCode: 'USD', count: 3, amount: 300 }],
  state: 'ERROR',
  takenTotals: [{ currencyCode: 'USD', count: 1, amount: 100 }],
  workspaceName: 'November',
  sentBy: 'alice',
  computer: 'alice-pc',
  updatedAt: '2026-11-20T09:05:00.000Z',
};

describe('what each call works on', () => {
  it('alone: this computer’s ledger, and one store per environment opened once', async () => {
    const rt = createRuntime({
      dataDir: dir,
      environments,
      events: new EventBus(),
      sharing: localLedgerSharing,
    });
    const ctx = await rt.context();
    expect(ctx.environment).toBe('production');
    expect(ctx.ledger).toBe(ctx.local);
    expect(ctx.ledger.bulks).toEqual([]);
    expect((await rt.context()).store).toBe(ctx.store);
    expect(await rt.partialsOf(ctx)).toEqual(new Map());
  });

  it('in team mode: colleagues’ bulks join the ledger, with what their bulk ended in ERROR took', async () => {
    const colleaguesBulks = vi.fn(() => Promise.resolve({ server: 'db:5432/desk', bulks: [erroredBulk] }));
    const rt = createRuntime({
      dataDir: dir,
      environments,
      events: new EventBus(),
      sharing: { ...localLedgerSharing, colleaguesBulks },
    });
    const ctx = await rt.context();
    expect(ledgerBulkIds(ctx.ledger, 'production')).toEqual(['b7']);
    expect(ledgerBulkIds(ctx.ledger, 'staging')).toEqual([]);
    expect(ctx.local.bulks).toEqual([]);
    expect(sentElsewhere(ctx.ledger.groups[0]!)).toEqual({ by: 'alice', computer: 'alice-pc' });
    expect(await rt.partialsOf(ctx)).toEqual(new Map([['b7', { totals: erroredBulk.takenTotals }]]));
  });

  it('tells the time as the clock given says', () => {
    const rt = createRuntime({
      dataDir: dir,
      environments,
      events: new EventBus(),
      sharing: localLedgerSharing,
      now: () => Date.parse('2026-11-26T12:00:00.000Z'),
    });
    expect(rt.at()).toBe('2026-11-26T12:00:00.000Z');
  });
});
