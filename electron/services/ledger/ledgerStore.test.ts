import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerStore } from './ledgerStore';
import type { LedgerGroup, LedgerIntent } from './ledgerSchema';
import { sentFingerprints } from './duplicateGuard';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

export function group(id: string, rowKeys: number[], fingerprints: string[]): LedgerGroup {
  return {
    id,
    workspaceId: 'ws-12345678',
    workspaceName: 'Gifts',
    createdAt: '2026-11-22T05:00:00.000Z',
    environment: 'offline',
    baseUrl: 'http://127.0.0.1:1',
    referenceKey: 'ddRef',
    parts: [
      {
        index: 0,
        rowKeys,
        rowNumbers: rowKeys.map((k) => k + 1),
        fingerprints,
        totals: [{ currencyCode: 'USD', count: rowKeys.length, amount: 100 * rowKeys.length }],
        fileHash: 'ab',
        fileBytes: 10,
        file: `files/${id}-0.json.gz`,
      },
    ],
    corrects: null,
    replaces: [],
    stopped: null,
  };
}

export function intent(
  attemptId: string,
  groupId: string,
  state: LedgerIntent['state'],
  extra: Partial<LedgerIntent> = {},
): LedgerIntent {
  return {
    attemptId,
    serviceId: state === 'creating' ? null : `svc-${attemptId}`,
    groupId,
    part: 0,
    state,
    createdAt: '2026-11-22T05:00:01.000Z',
    updatedAt: '2026-11-22T05:00:01.000Z',
    expiresAt: null,
    timeline: [{ state, at: '2026-11-22T05:00:01.000Z' }],
    counts: {},
    error: null,
    donationRowKeys: null,
    correctedByUpload: null,
    ...extra,
  };
}

describe('ledger store', () => {
  it('replays the journal over the snapshot after a restart (last record wins)', async () => {
    const a = await LedgerStore.open(dir);
    await a.putGroup(group('g1', [1, 2], ['f1', 'f2']));
    await a.putIntent(intent('a1', 'g1', 'creating'));
    await a.putIntent(intent('a1', 'g1', 'UPLOADED'));
    await a.close();
    const b = await LedgerStore.open(dir);
    expect(b.allGroups().map((g) => g.id)).toEqual(['g1']);
    expect(b.allIntents().map((i) => i.state)).toEqual(['UPLOADED']);
    expect(b.findIntent('svc-a1')?.attemptId).toBe('a1');
    await b.close();
  });

  it('ignores a torn last journal line left by a crash mid-append, and keeps what came before', async () => {
    const a = await LedgerStore.open(dir);
    await a.putGroup(group('g1', [1], ['f1']));
    await a.putIntent(intent('a1', 'g1', 'pending'));
    await a.close();
    // A crash: the lock stays behind with a pid that is gone, and half a line is in the journal.
    await appendFile(join(dir, 'journal.ndjson'), '{"k":"i","v":{"attemptId":"a1","state":"UPLO');
    await writeFile(join(dir, 'ledger.lock'), '999999999');
    const b = await LedgerStore.open(dir);
    expect(b.allIntents().map((i) => i.state)).toEqual(['pending']);
    await b.close();
  });

  it('refuses a second live owner (two processes resuming one upload could send it twice)', async () => {
    const a = await LedgerStore.open(dir);
    await expect(LedgerStore.open(dir)).rejects.toMatchObject({ code: 'BUSY' });
    await a.close();
    // Another live process (our parent stands in for it) holds the lock.
    await writeFile(join(dir, 'ledger.lock'), String(process.ppid));
    await expect(LedgerStore.open(dir)).rejects.toMatchObject({ code: 'BUSY' });
    // A dead one does not.
    await writeFile(join(dir, 'ledger.lock'), '999999999');
    const c = await LedgerStore.open(dir);
    await c.close();
    expect(await readFile(join(dir, 'ledger.lock'), 'utf8').catch(() => 'gone')).toBe('gone');
  });

  it('stops at a damaged journal line that is not the last', async () => {
    await writeFile(join(dir, 'journal.ndjson'), 'garbage\n{"k":"g","v":{}}\n{"k":"i"}\n');
    await expect(LedgerStore.open(dir)).rejects.toMatchObject({ code: 'LEDGER_UNREADABLE' });
  });
});

describe('duplicate guard', () => {
  it('flags rows of live or processed intents and of parts not yet sent, not of rejected ones', () => {
    const groups = [
      group('live', [1, 2], ['a', 'b']),
      group('unsent', [3], ['c']),
      group('rejected', [4, 5], ['d', 'e']),
      group('partial', [6, 7], ['f', 'g']),
      group('stopped', [8], ['h']),
    ];
    const stopped = groups[4] as LedgerGroup;
    stopped.stopped = { at: '2026-11-22T05:00:00.000Z', reason: 'refused' };
    const intents = [
      intent('x0', 'live', 'abandoned'),
      intent('x1', 'live', 'PROCESSING'),
      intent('x2', 'rejected', 'ERROR', { donationRowKeys: [] }),
      intent('x3', 'partial', 'ERROR', { donationRowKeys: [6] }),
    ];
    const sent = sentFingerprints(groups, intents);
    expect([...sent.keys()].sort()).toEqual(['a', 'b', 'c', 'f']);
    expect(sent.get('a')?.intentId).toBe('svc-x1');
  });

  it('errs towards asking while it is unknown which rows of a failed intent got a donation', () => {
    const sent = sentFingerprints([group('g', [1], ['a'])], [intent('x', 'g', 'ERROR')]);
    expect(sent.has('a')).toBe(true);
  });
});
