import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { closeDatabase, databaseOf, type DeskDatabase } from '../db/deskDatabase';
import {
  LedgerStore,
  leaseNameOf,
  readLedgerGroup,
  readLedgerRecords,
  readLedgerSummaries,
} from './ledgerStore';
import type { LedgerGroup, LedgerIntent } from './ledgerShapes';
import { sentFingerprints } from './duplicateGuard';
import { group } from './testing/ledgerGroup';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ledger-'));
});
afterEach(async () => {
  closeDatabase(dir);
  await rm(dir, { recursive: true, force: true });
});

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

/** The ledger folder inside its data folder, as the app lays it out (the database sits in the data folder). */
const ledgerDir = (): string => join(dir, 'uploads');
const database = (): DeskDatabase => databaseOf(dir);

describe('ledger store', () => {
  it('keeps every put across a restart (last record wins)', async () => {
    const a = await LedgerStore.open(ledgerDir());
    await a.putGroup(group('g1', [1, 2], ['f1', 'f2']));
    await a.putIntent(intent('a1', 'g1', 'creating'));
    await a.putIntent(intent('a1', 'g1', 'UPLOADED'));
    await a.close();
    closeDatabase(dir);
    const b = await LedgerStore.open(ledgerDir());
    expect(b.allGroups().map((g) => g.id)).toEqual(['g1']);
    expect(b.allIntents().map((i) => i.state)).toEqual(['UPLOADED']);
    expect(b.findIntent('svc-a1')?.attemptId).toBe('a1');
    await b.close();
  });

  it('refuses a second live owner (two processes resuming one upload could send it twice)', async () => {
    const a = await LedgerStore.open(ledgerDir());
    await expect(LedgerStore.open(ledgerDir())).rejects.toMatchObject({ code: 'BUSY' });
    await a.close();
    // Another live process (our parent stands in for it) holds the lease.
    const holdLease = (pid: number): void => {
      database().run(
        'INSERT OR REPLACE INTO lease (name, pid, token, taken_at) VALUES (?, ?, ?, ?)',
        leaseNameOf(ledgerDir()),
        pid,
        'other',
        'then',
      );
    };
    holdLease(process.ppid);
    await expect(LedgerStore.open(ledgerDir())).rejects.toMatchObject({ code: 'BUSY' });
    // A dead one does not.
    holdLease(999_999_999);
    const c = await LedgerStore.open(ledgerDir());
    await c.close();
    expect(database().get('SELECT * FROM lease')).toBeUndefined();
  });

  it('lets readers see every put without the lease', async () => {
    const a = await LedgerStore.open(ledgerDir());
    await a.putGroup(group('g1', [1], ['f1']));
    await a.putIntent(intent('a1', 'g1', 'PROCESSING'));
    const seen = await readLedgerRecords(ledgerDir());
    expect(seen.intents.map((i) => i.state)).toEqual(['PROCESSING']);
    await a.close();
  });

  it('reads the ledger again after a put here or a commit by another connection, not otherwise', async () => {
    const a = await LedgerStore.open(ledgerDir());
    await a.putGroup(group('g1', [1], ['f1']));
    await a.putIntent(intent('a1', 'g1', 'PROCESSING'));
    const first = await readLedgerRecords(ledgerDir());
    // Nothing changed: the same records, not parsed again.
    expect(await readLedgerRecords(ledgerDir())).toBe(first);
    await a.putIntent(intent('a1', 'g1', 'PROCESSED'));
    const afterPut = await readLedgerRecords(ledgerDir());
    expect(afterPut.intents.map((i) => i.state)).toEqual(['PROCESSED']);
    await a.close();
    // Another process (a connection of its own) changes an intent behind this one's back.
    const other = new DatabaseSync(join(dir, 'desk.db'));
    other.exec('PRAGMA busy_timeout = 5000');
    other
      .prepare('UPDATE ledger_intent SET body = ? WHERE attempt_id = ?')
      .run(JSON.stringify(intent('a1', 'g1', 'ERROR')), 'a1');
    other.close();
    expect((await readLedgerRecords(ledgerDir())).intents.map((i) => i.state)).toEqual(['ERROR']);
  });
});

describe('the ledger summaries Reconcile reads', () => {
  it("are the records without the rows' keys, numbers and fingerprints, keeping which part holds each replacing row", async () => {
    const a = await LedgerStore.open(ledgerDir());
    const plain = group('g1', [1, 2, 3], ['f1', 'f2', 'f3']);
    const correcting: LedgerGroup = {
      ...group('g2', [10, 11], ['f10', 'f11']),
      createdAt: '2026-11-23T05:00:00.000Z',
      replaces: [
        { rowKey: 11, donationId: 'd-old-1' },
        { rowKey: 20, donationId: 'd-old-2' },
      ],
    };
    const second = { ...(correcting.parts[0] as LedgerGroup['parts'][number]), index: 1 };
    correcting.parts.push({
      ...second,
      rowKeys: [20, 21],
      rowNumbers: [21, 22],
      fingerprints: ['f20', 'f21'],
    });
    await a.putGroup(plain);
    await a.putGroup(correcting);
    await a.putIntent(intent('a1', 'g1', 'PROCESSED'));
    const summaries = await readLedgerSummaries(ledgerDir());
    const light = ({ rowKeys, rowNumbers, fingerprints, ...rest }: LedgerGroup['parts'][number]) => {
      void [rowKeys, rowNumbers, fingerprints];
      return rest;
    };
    expect(summaries.groups).toEqual([
      { ...plain, parts: plain.parts.map(light) },
      {
        ...correcting,
        parts: [
          { ...light(correcting.parts[0] as LedgerGroup['parts'][number]), replacedRowKeys: [11] },
          { ...light(correcting.parts[1] as LedgerGroup['parts'][number]), replacedRowKeys: [20] },
        ],
      },
    ]);
    expect(summaries.intents).toEqual((await readLedgerRecords(ledgerDir())).intents);
    // Read once per change, as the whole records are.
    expect(await readLedgerSummaries(ledgerDir())).toBe(summaries);
    await a.putIntent(intent('a1', 'g1', 'ERROR'));
    expect((await readLedgerSummaries(ledgerDir())).intents.map((i) => i.state)).toEqual(['ERROR']);
    // The whole record of one upload stays readable for the rare reader that needs its rows.
    expect(readLedgerGroup(ledgerDir(), 'g2')).toEqual(correcting);
    expect(readLedgerGroup(ledgerDir(), 'nope')).toBeUndefined();
    await a.close();
  });
});

describe('upgrade from the JSON ledger of version 0.1', () => {
  it('imports snapshot and journal once, keeps the files beside as a backup, and ignores a torn last line', async () => {
    await mkdir(ledgerDir(), { recursive: true });
    const g = group('g1', [1], ['f1']);
    await writeFile(
      join(ledgerDir(), 'ledger.json'),
      JSON.stringify({ version: 1, groups: [g], intents: [intent('a0', 'g1', 'ERROR')] }),
    );
    await writeFile(
      join(ledgerDir(), 'journal.ndjson'),
      `${JSON.stringify({ k: 'i', v: intent('a1', 'g1', 'pending') })}\n{"k":"i","v":{"attemptId":"a1","state":"UPLO`,
    );
    const a = await LedgerStore.open(ledgerDir());
    expect(a.allIntents().map((i) => [i.attemptId, i.state])).toEqual([
      ['a0', 'ERROR'],
      ['a1', 'pending'],
    ]);
    await a.putIntent(intent('a1', 'g1', 'UPLOADED'));
    await a.close();
    expect(existsSync(join(ledgerDir(), 'ledger.json'))).toBe(false);
    expect(existsSync(join(ledgerDir(), 'ledger.json.pre-sqlite'))).toBe(true);
    expect(existsSync(join(ledgerDir(), 'journal.ndjson.pre-sqlite'))).toBe(true);

    // The files put back (a crash after the commit, before the rename): not imported over newer rows.
    await rename(join(ledgerDir(), 'journal.ndjson.pre-sqlite'), join(ledgerDir(), 'journal.ndjson'));
    const b = await LedgerStore.open(ledgerDir());
    expect(b.findIntent('a1')?.state).toBe('UPLOADED');
    expect(existsSync(join(ledgerDir(), 'journal.ndjson'))).toBe(false);
    await b.close();
  });

  it('stops at a damaged journal line that is not the last, imports nothing, and leaves the files', async () => {
    await mkdir(ledgerDir(), { recursive: true });
    await writeFile(join(ledgerDir(), 'journal.ndjson'), 'garbage\n{"k":"g","v":{}}\n{"k":"i"}\n');
    await expect(LedgerStore.open(ledgerDir())).rejects.toMatchObject({ code: 'LEDGER_UNREADABLE' });
    expect(await readFile(join(ledgerDir(), 'journal.ndjson'), 'utf8')).toContain('garbage');
    expect(database().get('SELECT * FROM imported')).toBeUndefined();
    // The lease was given back: after a fix, the ledger opens.
    await writeFile(join(ledgerDir(), 'journal.ndjson'), '');
    await (await LedgerStore.open(ledgerDir())).close();
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
