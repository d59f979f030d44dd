import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { DeskDatabase } from '../db/deskDatabase';
import { SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../db/schema';
import { AuditStore, type NewAuditEntry } from './auditStore';
import { AuditTrail } from './auditTrail';

let dir: string;
let db: DeskDatabase;
let store: AuditStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-'));
  db = DeskDatabase.open(dir);
  store = new AuditStore(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const entry = (over: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  at: '2026-11-20T10:00:00.000Z',
  person: 'ana',
  computer: 'LAPTOP-1',
  environment: 'offline',
  action: 'edit',
  details: {},
  ...over,
});

describe('the audit table', () => {
  it('refuses UPDATE and DELETE in raw SQL, from any connection, and keeps the entry as written', () => {
    store.insert(entry({ details: { cells: [{ row: 2, column: 'Amount', from: '10', to: '12' }] } }));
    expect(() => db.run("UPDATE audit SET person = 'someone else'")).toThrow(/insert-only/);
    expect(() => db.run('DELETE FROM audit')).toThrow(/insert-only/);
    // A connection of its own, as another program would open the file.
    const raw = new DatabaseSync(db.path);
    try {
      expect(() => raw.exec("UPDATE audit SET details = '{}' WHERE seq = 1")).toThrow(/insert-only/);
      expect(() => raw.exec('DELETE FROM audit WHERE seq = 1')).toThrow(/insert-only/);
      // REPLACE deletes the old row without firing DELETE triggers; its own trigger refuses it.
      expect(() =>
        raw.exec(
          "INSERT OR REPLACE INTO audit (seq, at, person, computer, environment, action, details) VALUES (1, 'x', 'x', 'x', 'x', 'x', '{}')",
        ),
      ).toThrow(/insert-only/);
      expect(() =>
        raw.exec(
          "INSERT INTO audit (seq, at, person, computer, environment, action, details) VALUES (1, 'x', 'x', 'x', 'x', 'x', '{}') ON CONFLICT (seq) DO UPDATE SET person = 'x'",
        ),
      ).toThrow(/insert-only/);
    } finally {
      raw.close();
    }
    const [only] = store.page({}).entries;
    expect(only).toMatchObject({ person: 'ana', details: { cells: [{ from: '10', to: '12' }] } });
  });

  it('is added by its migration to a database made at version 1, which keeps its rows', async () => {
    db.close();
    const old = await mkdtemp(join(tmpdir(), 'dd-audit-v1-'));
    try {
      const raw = new DatabaseSync(join(old, 'desk.db'));
      raw.exec('PRAGMA journal_mode = WAL');
      raw.exec(SQLITE_MIGRATIONS[0]!.text);
      raw.exec('PRAGMA user_version = 1');
      raw.exec("INSERT INTO imported (source, at, detail) VALUES ('ledger', 'then', '{}')");
      raw.close();
      const upgraded = DeskDatabase.open(old);
      expect(upgraded.schemaVersion()).toBe(SCHEMA_VERSION);
      expect(upgraded.get<{ n: number }>('SELECT count(*) AS n FROM imported')?.n).toBe(1);
      new AuditStore(upgraded).insert(entry());
      expect(new AuditStore(upgraded).page({}).total).toBe(1);
      upgraded.close();
    } finally {
      await rm(old, { recursive: true, force: true });
    }
    db = DeskDatabase.open(dir);
  });
});

describe('AuditStore', () => {
  it('lists newest first, a page at a time, and the next page starts below the last', () => {
    for (let i = 1; i <= 7; i++) store.insert(entry({ details: { n: i } }));
    const first = store.page({}, { limit: 3 });
    expect(first.entries.map((e) => e.details.n)).toEqual([7, 6, 5]);
    expect(first.total).toBe(7);
    const second = store.page({}, { limit: 3, before: first.nextBefore! });
    expect(second.entries.map((e) => e.details.n)).toEqual([4, 3, 2]);
    const last = store.page({}, { limit: 3, before: second.nextBefore! });
    expect(last.entries.map((e) => e.details.n)).toEqual([1]);
    expect(last.nextBefore).toBeNull();
  });

  it('filters by workspace, upload, donation, person and whole UTC days', () => {
    store.insert(entry({ workspaceId: 'w1', at: '2026-11-01T00:00:00.000Z' }));
    store.insert(entry({ workspaceId: 'w1', uploadId: 'u1', at: '2026-11-02T23:59:59.999Z' }));
    store.insert(entry({ donationId: 'd1', person: 'ben', at: '2026-11-03T00:00:00.000Z' }));
    store.insert(entry({ workspaceId: 'w2', at: '2026-11-04T08:00:00.000Z' }));
    const seqs = (filter: Parameters<AuditStore['page']>[0]) => store.page(filter).entries.map((e) => e.seq);
    expect(seqs({ workspaceId: 'w1' })).toEqual([2, 1]);
    expect(seqs({ uploadId: 'u1' })).toEqual([2]);
    expect(seqs({ donationId: 'd1' })).toEqual([3]);
    expect(seqs({ person: 'ben' })).toEqual([3]);
    expect(seqs({ since: '2026-11-02', until: '2026-11-03' })).toEqual([3, 2]);
    expect(seqs({ workspaceId: 'w1', since: '2026-11-02' })).toEqual([2]);
    expect(store.page({ person: 'ana', until: '2026-11-01' }).total).toBe(1);
    expect(store.people()).toEqual(['ana', 'ben']);
    expect([...store.all({ workspaceId: 'w1' })].map((e) => e.seq)).toEqual([2, 1]);
  });

  it('refuses a date that is not a day of the calendar, naming it', () => {
    expect(() => store.page({ since: '2026-02-30' })).toThrow(/"2026-02-30" is not a day/);
  });
});

describe('AuditTrail', () => {
  it('stamps each entry with UTC time, the identity passed in and the environment in force', () => {
    let environment = 'offline';
    const trail = new AuditTrail(
      store,
      { person: () => 'ana', computer: () => 'LAPTOP-1' },
      () => environment,
    );
    trail.record('settings', {}, { changes: [] });
    environment = 'production';
    trail.record('dismiss', { donationId: 'd9' }, { reason: 'duplicate' });
    const [second, first] = store.page({}).entries;
    expect(first).toMatchObject({
      person: 'ana',
      computer: 'LAPTOP-1',
      environment: 'offline',
      action: 'settings',
    });
    expect(second).toMatchObject({
      environment: 'production',
      donationId: 'd9',
      details: { reason: 'duplicate' },
    });
    expect(second!.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('reports an entry it could not write to the log instead of failing the action already done', () => {
    const logged: string[] = [];
    const trail = new AuditTrail(
      store,
      { person: () => 'ana', computer: () => 'PC' },
      () => 'offline',
      (m) => logged.push(m),
    );
    db.close();
    expect(() => trail.recordDone('dismiss', { donationId: 'd1' }, { reason: 'x' })).not.toThrow();
    expect(logged[0]).toMatch(/entry for "dismiss".*d1.*could not be written/);
    db = DeskDatabase.open(dir);
  });
});
