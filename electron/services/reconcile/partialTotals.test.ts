import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerGroup, LedgerIntent } from '../ledger/ledgerShapes';
import type { LedgerView } from './ledgerView';
import { partialTotals } from './partialTotals';

let dir = '';
const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const entry = (currencyCode: string, amount: number) => ({
  type: 'donations',
  attributes: {
    destination: { recipientId: '840-123456789' },
    funds: { paymentType: 'DONATION_REPORT', currencyCode, amount },
  },
});

async function ledgerWithFile(file: Buffer, hash: string, rowKeys: number[] | null): Promise<LedgerView> {
  dir = await mkdtemp(join(tmpdir(), 'dd-partial-'));
  made.push(dir);
  await writeFile(join(dir, 'part-0.json.gz'), file);
  const group = {
    id: 'u1',
    environment: 'offline',
    parts: [{ index: 0, rowKeys: [10, 11, 12], file: 'part-0.json.gz', fileHash: hash }],
  } as unknown as LedgerGroup;
  const intent = { part: 0, state: 'ERROR', donationRowKeys: rowKeys } as LedgerIntent;
  const bulk = { bulkId: 'b1', group, intent };
  return { groups: [group], intents: [intent], bulks: [bulk], byBulkId: new Map([['b1', bulk]]) };
}

describe('totals of the rows of a stopped part that got a donation', () => {
  const gz = gzipSync(JSON.stringify({ data: [entry('USD', 1000), entry('EUR', 250), entry('USD', 75)] }));
  const hash = createHash('sha256').update(gz).digest('hex');

  it('sum exactly those rows, from the file as it was sent', async () => {
    const ledger = await ledgerWithFile(gz, hash, [10, 12]);
    expect(await partialTotals(dir, ledger, 'offline')).toEqual(
      new Map([['b1', { totals: [{ currencyCode: 'USD', count: 2, amount: 1075 }] }]]),
    );
  });

  it('say so when the kept file is not the one sent', async () => {
    const ledger = await ledgerWithFile(gz, 'another-hash', [11]);
    const result = (await partialTotals(dir, ledger, 'offline')).get('b1');
    expect(result).toEqual({ problem: expect.stringMatching(/missing or changed/) });
  });

  it('leave out parts whose rows are not known, and other environments', async () => {
    expect((await partialTotals(dir, await ledgerWithFile(gz, hash, null), 'offline')).size).toBe(0);
    expect((await partialTotals(dir, await ledgerWithFile(gz, hash, [10]), 'sandbox')).size).toBe(0);
  });
});
