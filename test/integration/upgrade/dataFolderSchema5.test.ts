import { readdirSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseSync } from '@photostructure/sqlite';
import { closeDatabase, DeskDatabase } from '../../../electron/services/db/deskDatabase';
import { SCHEMA_VERSION, SQLITE_MIGRATIONS } from '../../../electron/services/db/schema';
import { AuditStore } from '../../../electron/services/audit/auditStore';
import type { LedgerGroup } from '../../../electron/services/ledger/ledgerShapes';
import { summaryOf } from '../../../electron/services/ledger/ledgerSummary';
import { openDesk, startSandbox, uploadGifts, type Desk, type Sandbox } from '../reconcile/harness';

/*
 * A data folder whose database was made by the code of before the migration files
 * (test/fixtures/data-folder-schema5: user_version 5, no history) opens in this version: the files
 * up to version 5 are recorded as adopted and not run again, versions 6 (the audit chain) and 7 (each
 * upload's summary) are applied after a backup, every row stays as it was (audit entries gain their
 * hash, uploads their summary), the schema is the one the files make in an empty folder, and the app
 * goes on working on it.
 */

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'data-folder-schema5');
let s: Sandbox;
let desk: Desk | null = null;

/** Every table's rows (the history left out) and every object's SQL, whitespace folded. */
function snapshot(path: string): { rows: Record<string, unknown[]>; schema: string[] } {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const objects = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE tbl_name <> 'schema_history'")
      .all() as Array<{ type: string; name: string; sql: string | null }>;
    const rows: Record<string, unknown[]> = {};
    for (const o of objects.filter((x) => x.type === 'table')) {
      const all = db.prepare(`SELECT * FROM "${o.name}"`).all();
      rows[o.name] = all.map((r) => JSON.stringify(r)).sort();
    }
    const schema = objects.map((o) => `${o.type} ${o.name} ${(o.sql ?? '').replace(/\s+/g, ' ')}`).sort();
    return { rows, schema };
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  s = await startSandbox();
  await cp(FIXTURE, s.dataDir, { recursive: true });
});
afterEach(async () => {
  await desk?.runtime.close();
  desk = null;
  closeDatabase(s.dataDir);
  await s.close();
});

describe('a data folder at SQLite schema 5 made before the migration files', () => {
  it('is adopted as it is up to version 5, then gets the audit chain: no row lost, a backup of schema 5 kept', async () => {
    const path = join(s.dataDir, 'desk.db');
    const before = snapshot(path);
    expect(before.rows.donation).toHaveLength(7);

    const db = DeskDatabase.open(s.dataDir);
    expect(db.schemaVersion()).toBe(SCHEMA_VERSION);
    expect(db.all('SELECT name, version, how FROM schema_history ORDER BY version')).toEqual(
      SQLITE_MIGRATIONS.map((m) => ({
        name: m.name,
        version: m.version,
        how: (m.version ?? 0) <= 5 ? 'adopted' : 'applied',
      })),
    );
    // The entries written before the chain are sealed, once, in order, when the trail is first used.
    expect(await new AuditStore(db).verify()).toEqual({ trail: 'folder', whole: true, entries: 2 });
    db.close();

    const after = snapshot(path);
    const { audit: auditAfter, audit_chain: chain, ledger_group: groupsAfter, ...restAfter } = after.rows;
    const { audit: auditBefore, ledger_group: groupsBefore, ...restBefore } = before.rows;
    expect(restAfter).toEqual(restBefore);
    // Every upload as it was, with its summary added (version 7), as the app makes it from the record.
    expect(
      (groupsAfter ?? [])
        .map((r) => {
          const { summary, ...rest } = JSON.parse(r as string) as { summary: string; body: string };
          expect(JSON.parse(summary)).toStrictEqual(
            JSON.parse(JSON.stringify(summaryOf(JSON.parse(rest.body) as LedgerGroup))),
          );
          return JSON.stringify(rest);
        })
        .sort(),
    ).toEqual(groupsBefore);
    // Every entry as it was, with its hash added.
    expect(
      (auditAfter ?? []).map((r) => {
        const { hash, ...rest } = JSON.parse(r as string) as Record<string, unknown>;
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
        return JSON.stringify(rest);
      }),
    ).toEqual(auditBefore);
    expect(chain).toHaveLength(1);
    expect(readdirSync(join(s.dataDir, 'backups'))).toEqual([
      expect.stringMatching(/^desk-schema-5-before-upgrade-.*\.db$/),
    ]);

    // …and the schema is the one the files make in an empty folder.
    const empty = await mkdtemp(join(tmpdir(), 'dd-schema5-'));
    try {
      DeskDatabase.open(empty).close();
      expect(snapshot(join(empty, 'desk.db')).schema).toEqual(after.schema);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('works on afterwards: its uploads, donations and locations are there, and a new upload goes through', async () => {
    desk = await openDesk(s);
    expect(await desk.call('upload.list', {})).toHaveLength(3);
    const listed = await desk.call('donations.list', { cached: true });
    expect(listed.donations).toHaveLength(7);
    expect((await desk.call('locations.list', {})).locations).toHaveLength(2);

    const bulkId = await uploadGifts(
      s,
      desk,
      [{ recipient: s.good[0] as string, amount: '7.00', currency: 'USD' }],
      200,
    );
    const uploads = await desk.call('upload.list', {});
    expect(uploads).toHaveLength(4);
    // Followed to PROCESSED (uploadGifts throws otherwise) and kept in the ledger.
    expect(uploads.flatMap((u) => u.intents).some((i) => i.serviceId === bulkId)).toBe(true);
    // The new upload's entries continue the chain of the entries written before it.
    const [folder] = await desk.call('audit.verify', {});
    expect(folder).toMatchObject({ trail: 'folder', whole: true });
    expect(folder?.entries).toBeGreaterThan(2);
  });
});
