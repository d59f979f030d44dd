import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { DeskDatabase } from '../db/deskDatabase';
import { SQLITE_MIGRATIONS } from '../db/schema';
import { BROKEN, entryHash, type SealedRow } from './auditChain';
import { AuditStore, type NewAuditEntry } from './auditStore';

let dir: string;
let db: DeskDatabase;
let store: AuditStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-chain-'));
  db = DeskDatabase.open(dir);
  store = new AuditStore(db);
});
afterEach(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

const entry = (n: number, over: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  at: `2026-11-03T14:${String(n).padStart(2, '0')}:00.000Z`,
  person: 'ana',
  computer: 'LAPTOP-1',
  environment: 'offline',
  action: 'edit',
  workspaceId: 'ws-1',
  details: { n },
  ...over,
});

const rows = (d: DeskDatabase) => d.all<SealedRow>('SELECT * FROM audit ORDER BY seq');

/** What another program does with the file: the app's triggers dropped first, as it would have to. */
function outside(path: string, ...statements: string[]): void {
  const raw = new DatabaseSync(path);
  try {
    raw.exec('DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete;');
    for (const sql of statements) raw.exec(sql);
  } finally {
    raw.close();
  }
}

describe('the data folder’s audit chain', () => {
  it('hashes each entry over its content and the previous hash, in the transaction that writes it', async () => {
    for (let n = 1; n <= 5; n++) store.insert(entry(n));
    const written = rows(db);
    let previous: string | null = null;
    for (const row of written) {
      expect(row.hash).toBe(entryHash(row, previous));
      previous = row.hash;
    }
    expect(db.get('SELECT last_seq, last_hash FROM audit_chain')).toEqual({
      last_seq: 5,
      last_hash: previous,
    });
    expect(await store.verify()).toEqual({ trail: 'folder', whole: true, entries: 5 });
  });

  it('stays one chain when two connections (the app and a command) write in turn', async () => {
    const other = DeskDatabase.open(dir);
    try {
      const second = new AuditStore(other);
      for (let n = 1; n <= 10; n++) (n % 2 ? store : second).insert(entry(n));
      expect(await second.verify()).toEqual({ trail: 'folder', whole: true, entries: 10 });
    } finally {
      other.close();
    }
  });

  it('names an entry whose content was changed from outside the app', async () => {
    for (let n = 1; n <= 8; n++) store.insert(entry(n));
    db.close();
    outside(db.path, `UPDATE audit SET details = '{"n":999}' WHERE seq = 3`);
    db = DeskDatabase.open(dir);
    expect((await new AuditStore(db).verify()).firstBroken).toEqual({
      seq: 3,
      at: '2026-11-03T14:03:00.000Z',
      reason: BROKEN.changed,
    });
  });

  it('keeps a removal in view when the app writes on after it', async () => {
    for (let n = 1; n <= 6; n++) store.insert(entry(n));
    db.close();
    outside(db.path, 'DELETE FROM audit WHERE seq >= 5');
    db = DeskDatabase.open(dir);
    store = new AuditStore(db);
    expect((await store.verify()).firstBroken).toEqual({ seq: 5, reason: BROKEN.removedAtEnd(6) });
    // The next entry follows the app's last one (7), not the last one left (5): the gap stays.
    expect(store.insert(entry(7))).toBe(7);
    expect(await store.verify()).toMatchObject({
      whole: false,
      entries: 5,
      firstBroken: { seq: 5, reason: BROKEN.removed(5, 6) },
    });
  });

  it('names an entry inserted from outside, and the app’s next entries do not hide it', async () => {
    for (let n = 1; n <= 3; n++) store.insert(entry(n));
    outside(
      db.path,
      `INSERT INTO audit (seq, at, person, computer, environment, action, details)
       VALUES (4, '2020-01-01T00:00:00.000Z', 'bob', 'bob-laptop', 'offline', 'approve', '{}')`,
    );
    store.insert(entry(5));
    expect((await store.verify()).firstBroken).toEqual({
      seq: 4,
      at: '2020-01-01T00:00:00.000Z',
      reason: BROKEN.added,
    });
  });

  it('seals the entries of a folder made before version 6 once, in order, when it is first used', async () => {
    db.close();
    const old = await mkdtemp(join(tmpdir(), 'dd-audit-v5-'));
    try {
      const raw = new DatabaseSync(join(old, 'desk.db'));
      raw.exec('PRAGMA journal_mode = WAL');
      for (const m of SQLITE_MIGRATIONS.filter((x) => (x.version ?? 0) <= 5)) raw.exec(m.text);
      raw.exec('PRAGMA user_version = 5');
      for (let n = 1; n <= 3; n++) {
        raw.exec(
          `INSERT INTO audit (at, person, computer, environment, action, details)
           VALUES ('2026-10-0${n}T09:00:00.000Z', 'ana', 'PC', 'offline', 'import', '{"n":${n}}')`,
        );
      }
      raw.close();
      const upgraded = DeskDatabase.open(old);
      expect(upgraded.get('SELECT count(*) AS n FROM audit WHERE hash IS NULL')).toEqual({ n: 3 });
      const upgradedStore = new AuditStore(upgraded);
      expect(await upgradedStore.verify()).toEqual({ trail: 'folder', whole: true, entries: 3 });
      expect(upgraded.get('SELECT count(*) AS n FROM audit WHERE hash IS NULL')).toEqual({ n: 0 });
      expect(upgraded.get('SELECT last_seq, unsealed_through FROM audit_chain')).toEqual({
        last_seq: 3,
        unsealed_through: 0,
      });
      upgradedStore.insert(entry(4));
      expect(await upgradedStore.verify()).toEqual({ trail: 'folder', whole: true, entries: 4 });
      // Sealed once: a hash is never set again, and nothing else of an entry was ever open to change.
      expect(() => upgraded.run("UPDATE audit SET hash = 'x' WHERE seq = 1")).toThrow(/insert-only/);
      upgraded.run(
        "INSERT INTO audit (seq, at, person, computer, environment, action, details) VALUES (5, 'x', 'x', 'x', 'x', 'x', '{}')",
      );
      expect(() => upgraded.run("UPDATE audit SET hash = 'x' WHERE seq = 5")).toThrow(/insert-only/);
      upgraded.close();
    } finally {
      await rm(old, { recursive: true, force: true });
    }
    db = DeskDatabase.open(dir);
  });
});
