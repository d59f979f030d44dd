import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { AuditStore } from '../../../electron/services/audit/auditStore';
import { DeskDatabase } from '../../../electron/services/db/deskDatabase';
import '../../../electron/cli/commands/audit';

/*
 * `donation-desk audit verify` on a data folder whose desk.db was edited from outside the app with
 * SQLite itself (the insert-only triggers dropped first, as anyone editing the file would): an entry
 * changed, one removed, one forged. Each is named with exit 1; an untouched folder gives exit 0, and
 * so does a folder of schema 5 (made before the chain) once this version has opened it.
 */

let dir: string;
let dataDir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-verify-'));
  dataDir = join(dir, 'data');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verify(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['--data-dir', dataDir, ...args, 'audit', 'verify'], {
    out: (t) => (out += `${t}\n`),
    err: (t) => (err += `${t}\n`),
    env: {},
    root: dir,
    version: 'test',
  });
  return { code, out, err };
}

/** Ten entries written by the app's own store, a minute apart. */
function writeTrail(): void {
  const db = DeskDatabase.open(dataDir);
  try {
    const store = new AuditStore(db);
    for (let n = 1; n <= 10; n++) {
      store.insert({
        at: `2026-11-03T14:${String(10 + n)}:00.000Z`,
        person: 'ana',
        computer: 'LAPTOP-1',
        environment: 'production',
        action: n === 1 ? 'import' : 'edit',
        workspaceId: 'ws-1',
        details: { version: n, fileName: 'november.xlsx' },
      });
    }
  } finally {
    db.close();
  }
}

/** What someone with the file and the sqlite3 program can do to it. */
function editOutside(...statements: string[]): void {
  const raw = new DatabaseSync(join(dataDir, 'desk.db'));
  try {
    raw.exec('DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete;');
    for (const sql of statements) raw.exec(sql);
  } finally {
    raw.close();
  }
}

describe('donation-desk audit verify', () => {
  it('says an untouched trail is whole, with exit 0, and the same as JSON', async () => {
    writeTrail();
    const run = await verify();
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/The data folder’s audit trail is whole: 10 entries/);
    const json = await verify('--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual({
      whole: true,
      trails: [{ trail: 'folder', whole: true, entries: 10, sentence: expect.stringMatching(/is whole/) }],
    });
  });

  it('names an entry whose content was changed', async () => {
    writeTrail();
    editOutside(`UPDATE audit SET details = '{"version":4,"fileName":"other.xlsx"}' WHERE seq = 4`);
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'The data folder’s audit trail is broken at entry 4 (2026-11-03 14:14 UTC): its content was changed after it was written.',
    );
    const json = JSON.parse((await verify('--json')).out) as { whole: boolean; trails: unknown[] };
    expect(json.whole).toBe(false);
    expect(json.trails[0]).toMatchObject({
      trail: 'folder',
      whole: false,
      entries: 10,
      firstBroken: {
        seq: 4,
        at: '2026-11-03T14:14:00.000Z',
        reason: 'its content was changed after it was written',
      },
    });
  });

  it('names an entry that was removed', async () => {
    writeTrail();
    editOutside('DELETE FROM audit WHERE seq = 6');
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.out).toContain('The data folder’s audit trail is broken at entry 6: it was removed.');
  });

  it('names an entry forged after the last one, and one forged over an existing entry', async () => {
    writeTrail();
    editOutside(
      `INSERT INTO audit (seq, at, person, computer, environment, action, details)
       VALUES (11, '2020-01-01T00:00:00.000Z', 'ana', 'bob-laptop', 'production', 'upload', '{}')`,
    );
    const run = await verify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'The data folder’s audit trail is broken at entry 11 (2020-01-01 00:00 UTC): it was added from outside the app.',
    );

    // Removed and written again in its place, with the hash of the entry it replaced.
    await rm(dataDir, { recursive: true, force: true });
    writeTrail();
    editOutside(
      `CREATE TEMP TABLE kept AS SELECT * FROM audit WHERE seq = 7`,
      'DELETE FROM audit WHERE seq = 7',
      `INSERT INTO audit SELECT seq, '2020-01-01T00:00:00.000Z', person, 'bob-laptop', environment, action,
         workspace_id, upload_id, donation_id, details, hash FROM kept`,
    );
    const replaced = await verify();
    expect(replaced.code).toBe(1);
    expect(replaced.out).toMatch(/broken at entry 7 \(2020-01-01 00:00 UTC\): its content was changed/);
  });

  it('upgrades a data folder of schema 5 and finds its trail whole, then an outside edit broken', async () => {
    await cp(join(process.cwd(), 'test', 'fixtures', 'data-folder-schema5'), dataDir, { recursive: true });
    const run = await verify();
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/is whole: 2 entries/);
    editOutside("UPDATE audit SET person = 'someone else' WHERE seq = 1");
    const broken = await verify();
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/broken at entry 1 \(2026-11-26 17:19 UTC\): its content was changed/);
  });

  it('says there is nothing to check in a folder without a database (exit 2)', async () => {
    const run = await verify();
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/no database/);
  });
});
