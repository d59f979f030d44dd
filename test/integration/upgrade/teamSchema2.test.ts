import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../../electron/cli/main';
import '../../../electron/cli/commands/db';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { initTeamDatabase } from '../../../electron/services/team/teamInit';
import { TEAM_MIGRATIONS } from '../../../electron/services/team/teamSchema';
import type { NewTeamUpload } from '../../../electron/services/team/teamTypes';
import { findPgBin, startPgCluster, type PgCluster } from '../../support/pgCluster';
import { deskCatalog, deskRows } from '../../support/teamCatalog';
import { TEAM_LOGINS } from '../../support/teamCluster';

/*
 * A team database set up by the code of before the migration files (test/fixtures/
 * team-database-schema2.sql, a pg_dump at schema 2 with a little of everything in it) is adopted by
 * `db init-team`: nothing of versions 1 and 2 runs again, version 3 is applied (the audit entries
 * there are sealed in their order), every row stays as it was, its schema is the one the files make
 * on an empty database, and the app works on it.
 */

const FIXTURE = join(process.cwd(), 'test', 'fixtures', 'team-database-schema2.sql');
const ENV_KEY = 'offline|http://emu';
let cluster: PgCluster;
let older: pg.Client;
let fresh: pg.Client;

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (t: string) => out.push(t),
      err: (t: string) => err.push(t),
      env: {},
      root: '.',
      version: 't',
    },
  };
}

beforeAll(async () => {
  cluster = await startPgCluster();
  // The roles first (a dump of one database has none): made by setting up the `desk` database.
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await initTeamDatabase(admin);
  await admin.end();
  for (const [login, roles] of Object.entries(TEAM_LOGINS)) {
    await cluster.createLogin(login, `${login}-password`, [...roles]);
  }
  await cluster.query('CREATE DATABASE older');
  const restore = spawnSync(
    join(findPgBin()!, 'psql'),
    ['-q', '-v', 'ON_ERROR_STOP=1', '-d', cluster.url(undefined, undefined, 'older'), '-f', FIXTURE],
    { encoding: 'utf8' },
  );
  expect(restore.stderr).toBe('');
  expect(restore.status).toBe(0);
  await cluster.query('GRANT CONNECT ON DATABASE older TO desk_preparer');
  older = new pg.Client({ connectionString: cluster.url(undefined, undefined, 'older') });
  fresh = new pg.Client({ connectionString: cluster.adminUrl });
  await older.connect();
  await fresh.connect();
}, 120_000);

afterAll(async () => {
  await older?.end();
  await fresh?.end();
  await cluster?.stop();
});

describe('a team database at schema 2 made before the migration files', () => {
  it('is adopted by db init-team: history recorded, nothing run again, every row and rule unchanged', async () => {
    const rowsBefore = await deskRows(older);
    const catalogBefore = await deskCatalog(older);
    expect(rowsBefore.upload).toHaveLength(3);
    expect((await older.query("SELECT to_regclass('desk.schema_history') AS t")).rows[0]?.t).toBeNull();

    const run = io();
    const url = cluster.url(undefined, undefined, 'older');
    expect(await runCli(['--data-dir', tmpdir(), 'db', 'init-team', '--json', '--url', url], run.io)).toBe(
      EXIT.ok,
    );
    const answer = JSON.parse(run.out.join('\n')) as {
      before: number;
      version: number;
      statements: string[];
    };
    expect(answer).toMatchObject({ before: 2, version: 3 });
    // Versions 1 and 2 are adopted as they are; version 3 (and the functions it changes) applied.
    const history = await older.query<{ name: string; how: string; checksum: string }>(
      'SELECT name, how, checksum FROM desk.schema_history ORDER BY name',
    );
    expect(history.rows.map((r) => ({ name: r.name, checksum: r.checksum }))).toEqual(
      TEAM_MIGRATIONS.map((m) => ({ name: m.name, checksum: m.checksum })).sort((a, b) =>
        a.name.localeCompare(b.name),
      ),
    );
    expect(history.rows.filter((r) => r.name.startsWith('V00')).map((r) => `${r.name} ${r.how}`)).toEqual([
      'V001__uploads_approvals_audit_corrections.sql adopted',
      'V002__shared_ledger_and_approver_sends.sql adopted',
      'V003__sealed_trail_stored_parts_and_duties.sql applied',
    ]);

    // Every row stays as it was; the audit entries gain their seals (and nothing else changes).
    const sealed = ['prev_seq', 'hash', 'reported_at'];
    const unsealed = (rows: Record<string, string[]>) =>
      Object.fromEntries(
        Object.entries(rows)
          .filter(([table]) => !['audit_head', 'audit_origin'].includes(table))
          .map(([table, list]) => [
            table,
            list
              .filter((row) => !(table === 'schema_version' && row.includes('"version": 3')))
              .map((row) => {
                const o = JSON.parse(row) as Record<string, unknown>;
                for (const key of sealed) delete o[key];
                return JSON.stringify(o);
              }),
          ]),
      );
    const rowsAfter = await deskRows(older);
    expect(unsealed(rowsAfter)).toEqual(unsealed(rowsBefore));
    expect(rowsAfter.audit!.length).toBeGreaterThan(0);
    expect(rowsAfter.audit!.every((r) => /"hash": "[0-9a-f]{64}"/.test(r))).toBe(true);
    // The old entries are chained in their order, and the chain holds.
    const check = await older.query('SELECT * FROM desk.verify_audit()');
    expect(check.rows[0]).toMatchObject({ whole: true, entries: String(rowsAfter.audit!.length) });
    // …and that schema is the very one the files make on an empty database.
    expect(await deskCatalog(older)).toEqual(await deskCatalog(fresh));
    expect(catalogBefore).not.toEqual(await deskCatalog(older));

    const again = io();
    expect(await runCli(['--data-dir', tmpdir(), 'db', 'init-team', '--url', url], again.io)).toBe(EXIT.ok);
    expect(again.out.join('\n')).toMatch(/already set up, schema version 3; nothing was run/);
  });

  it('works for the team afterwards: what was there is read, and an upload goes through as before', async () => {
    const as = (login: keyof typeof TEAM_LOGINS) =>
      new PgTeamDatabase({
        url: cluster.url(login, `${login}-password`, 'older'),
        computer: `${login}-laptop`,
      });
    const alice = as('alice');
    const bob = as('bob');
    try {
      expect(await alice.rule()).toEqual({
        approval: 'above',
        thresholds: { USD: 5000 },
        sender: 'approver',
      });
      expect((await alice.uploads()).map((u) => `${u.id} ${u.state}`).sort()).toEqual([
        'u1 sent',
        'u2 rejected',
        'u3 waiting',
      ]);
      expect((await alice.teamBulks(ENV_KEY)).map((b) => b.bulkId)).toEqual(['bulk-1']);
      expect((await alice.sentOneByOne(ENV_KEY)).map((o) => o.donationId)).toEqual(['don-9']);

      // The rule says the approver sends: the file is stored, approved, and sent by bob.
      const bytes = Buffer.from('a gzip part, as far as the database knows');
      const sha = createHash('sha256').update(bytes).digest('hex');
      const upload = await alice.submit({
        id: 'u4',
        workspaceName: 'December gifts',
        environment: 'offline',
        environmentKey: ENV_KEY,
        computer: 'alice-laptop',
        fileSha256: sha,
        rows: 1,
        totals: [{ currencyCode: 'USD', amount: 9000, count: 1 }],
        review: { month: '2026-12' } as unknown as NewTeamUpload['review'],
      });
      expect(upload).toMatchObject({ state: 'waiting', sender: 'approver', preparer: 'alice' });
      await alice.storeUploadFile('u4', 0, bytes);
      expect(await bob.decide('u4', 'approve', sha, null)).toMatchObject({ state: 'approved' });
      await expect(alice.markSent('u4', sha)).rejects.toThrow(/bob approved this upload and sends it/);
      expect(await bob.markSent('u4', sha)).toMatchObject({ state: 'sent', sentBy: 'bob' });
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
