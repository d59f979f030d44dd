import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runCli } from '../../../electron/cli/main';
import '../../../electron/cli/commands/db';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { TEAM_MIGRATIONS, TEAM_SCHEMA_VERSION } from '../../../electron/services/team/teamSchema';
import { buildCli } from '../cliProcess';
import { startPgCluster, type PgCluster } from '../../support/pgCluster';

/* `donation-desk db init-team` on a real, empty PostgreSQL database: in process, and as the built CLI. */

let cluster: PgCluster;
let dir: string;

beforeAll(async () => {
  cluster = await startPgCluster();
  dir = await mkdtemp(join(tmpdir(), 'dd-init-team-'));
  await cluster.query('CREATE DATABASE second');
  await cluster.createLogin('alice', 'alice-pw');
});
afterAll(async () => {
  await cluster?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function streams(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), env, root: '.', version: 't' },
  };
}

describe('db init-team', () => {
  it('sets up an empty database, prints the SQL it ran, and says so when run again', async () => {
    const first = streams();
    expect(await runCli(['--data-dir', dir, 'db', 'init-team', '--url', cluster.adminUrl], first.io)).toBe(
      EXIT.ok,
    );
    const printed = first.out.join('\n');
    expect(printed).toContain('CREATE SCHEMA desk;');
    expect(printed).toContain('CREATE ROLE desk_preparer NOLOGIN;');
    expect(printed).toContain('CREATE FUNCTION desk.decide(');
    expect(printed).toContain(
      `INSERT INTO desk.schema_version (version, summary) VALUES (${TEAM_SCHEMA_VERSION},`,
    );
    expect(printed).toMatch(/-- Done: the team database at 127\.0\.0\.1:\d+\/desk is set up/);
    expect(printed).not.toContain('cluster-admin-password');

    // The SQL printed is the SQL that ran: run on another empty database, it makes the same schema.
    const second = new pg.Client({ connectionString: cluster.url(undefined, undefined, 'second') });
    await second.connect();
    try {
      await second.query(printed);
      const { rows } = await second.query<{ v: number }>('SELECT max(version) AS v FROM desk.schema_version');
      expect(rows[0]?.v).toBe(TEAM_SCHEMA_VERSION);
    } finally {
      await second.end();
    }

    const again = streams({ DONATION_DESK_DATABASE_URL: cluster.adminUrl });
    expect(await runCli(['--data-dir', dir, 'db', 'init-team'], again.io)).toBe(EXIT.ok);
    expect(again.out).toEqual([
      `The team database at 127.0.0.1:${cluster.port}/desk is already set up, schema version ${TEAM_SCHEMA_VERSION}; nothing was run.`,
    ]);
    const { rows } = await cluster.query<{ n: number }>('SELECT count(*)::int AS n FROM desk.schema_version');
    expect(rows[0]?.n).toBe(TEAM_MIGRATIONS.filter((m) => m.kind === 'versioned').length);
  });

  it('brings a database of version 1 up to date, keeping its uploads; the app asks for it before', async () => {
    await cluster.query('CREATE DATABASE older');
    const url = cluster.url(undefined, undefined, 'older');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // As the code of before the migration files left it: version 1's statements and its version row.
      const [first] = TEAM_MIGRATIONS;
      await admin.query(first!.text);
      await admin.query(`INSERT INTO desk.schema_version (version, summary) VALUES (1, '${first!.summary}')`);
      await admin.query(
        `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
         VALUES ('u1', 'October gifts', 'production', 'k', 'c', repeat('a', 64), 1, '[]', '{}')`,
      );
      await admin.query(`GRANT desk_preparer TO alice`);
      // The app on version 1: refused with what to do, not a missing-table error.
      const app = new PgTeamDatabase({ url: cluster.url('alice', 'alice-pw', 'older') });
      try {
        await expect(app.teamBulks('k')).rejects.toThrow(
          new RegExp(
            `is at schema version 1; this Donation Desk needs ${TEAM_SCHEMA_VERSION}: the team's admin runs donation-desk db init-team`,
          ),
        );
      } finally {
        await app.close();
      }

      const run = streams();
      expect(await runCli(['--data-dir', dir, 'db', 'init-team', '--url', url], run.io)).toBe(EXIT.ok);
      const printed = run.out.join('\n');
      expect(printed).toContain('CREATE TABLE desk.sent_bulk');
      expect(printed).not.toContain('CREATE SCHEMA desk;');
      const { rows } = await admin.query<{ v: number; n: number }>(
        'SELECT max(version) AS v, (SELECT count(*)::int FROM desk.upload) AS n FROM desk.schema_version',
      );
      expect(rows[0]).toEqual({ v: TEAM_SCHEMA_VERSION, n: 1 });
      const after = new PgTeamDatabase({ url: cluster.url('alice', 'alice-pw', 'older') });
      try {
        expect(await after.teamBulks('k')).toEqual([]);
      } finally {
        await after.close();
      }
    } finally {
      await admin.end();
    }
  });

  it('works for an owner with CREATEROLE who is not a superuser; the rules hold for its functions', async () => {
    await cluster.createLogin('owner', 'owner-pw');
    await cluster.query('ALTER ROLE owner CREATEROLE');
    await cluster.query('CREATE DATABASE fourth OWNER owner');
    const run = streams();
    const url = cluster.url('owner', 'owner-pw', 'fourth');
    expect(await runCli(['--data-dir', dir, 'db', 'init-team', '--url', url], run.io)).toBe(EXIT.ok);
    const owner = new pg.Client({ connectionString: url });
    await owner.connect();
    try {
      const { rows } = await owner.query<{ owner: string; su: boolean }>(
        `SELECT pg_get_userbyid(p.proowner) AS owner, r.rolsuper AS su
         FROM pg_proc p JOIN pg_roles r ON r.oid = p.proowner WHERE p.oid = 'desk.decide'::regproc`,
      );
      expect(rows[0]).toEqual({ owner: 'owner', su: false });
      // The owner's own approval of its own upload is refused like anyone's (it is no approver).
      await owner.query(
        `INSERT INTO desk.upload (id, workspace_name, environment, environment_key, computer, file_sha256, rows, totals, review)
         VALUES ('o1', 'w', 'sandbox', 'k', 'c', repeat('a', 64), 1, '[]', '{}')`,
      );
      await expect(
        owner.query("SELECT desk.decide('o1', 'approve', repeat('a', 64), null)"),
      ).rejects.toMatchObject({ code: 'DD002' });
    } finally {
      await owner.end();
    }
  });

  it('refuses a login that may not create roles, an unreachable server, and no address', async () => {
    const notAdmin = streams();
    expect(
      await runCli(
        ['--data-dir', dir, 'db', 'init-team', '--url', cluster.url('alice', 'alice-pw', 'postgres')],
        notAdmin.io,
      ),
    ).toBe(EXIT.usage);
    expect(notAdmin.err.join('\n')).toMatch(/needs an administrator's login.*alice is neither/);

    const down = streams();
    expect(
      await runCli(
        ['--data-dir', dir, 'db', 'init-team', '--json', '--url', 'postgres://admin:pw@127.0.0.1:1/desk'],
        down.io,
      ),
    ).toBe(EXIT.service);
    expect(JSON.parse(down.out.join('\n'))).toMatchObject({ ok: false, code: 'TEAM_UNREACHABLE' });

    const none = streams();
    expect(await runCli(['--data-dir', dir, 'db', 'init-team'], none.io)).toBe(EXIT.usage);
    expect(none.err.join('\n')).toMatch(
      /--url postgres:\/\/ADMIN@HOST:5432\/DATABASE, or set DONATION_DESK_DATABASE_URL/,
    );
  });

  it('runs from the built CLI bundle (pg bundled, its optional native binding left out)', async () => {
    const cli = await buildCli(dir);
    await cluster.query('CREATE DATABASE third');
    const url = cluster.url(undefined, undefined, 'third');
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, '--data-dir', dir, 'db', 'init-team', '--json'], {
        // The SQLite binding is not bundled (it loads its native binary from beside its files).
        env: {
          PATH: process.env.PATH,
          NODE_PATH: join(process.cwd(), 'node_modules'),
          DONATION_DESK_DATABASE_URL: url,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as {
      ok: boolean;
      before: number;
      version: number;
      statements: string[];
    };
    expect(answer).toMatchObject({ ok: true, before: 0, version: TEAM_SCHEMA_VERSION });
    expect(answer.statements.length).toBeGreaterThan(30);
  });
});
