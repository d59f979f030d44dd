import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from './pgCluster';

describe('a throwaway PostgreSQL cluster for tests', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves the desk database to the superuser and to logins made with passwords', async () => {
    const { rows } = await cluster.query<{ db: string; su: boolean }>(
      "SELECT current_database() AS db, current_setting('is_superuser') = 'on' AS su",
    );
    expect(rows[0]).toEqual({ db: 'desk', su: true });

    await cluster.createLogin('alice', 'alice-pw');
    const alice = new pg.Client({ connectionString: cluster.url('alice', 'alice-pw') });
    await alice.connect();
    const who = await alice.query<{ u: string }>('SELECT current_user AS u');
    await alice.end();
    expect(who.rows[0]?.u).toBe('alice');

    const wrong = new pg.Client({ connectionString: cluster.url('alice', 'not-her-password') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('is a fresh cluster of its own, and stopping it removes its folder', async () => {
    const other = await startPgCluster();
    expect(other.port).not.toBe(cluster.port);
    const { rows } = await other.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_roles WHERE rolname = 'alice'",
    );
    expect(rows[0]?.n).toBe(0);
    const { rows: dirs } = await other.query<{ d: string }>("SELECT current_setting('data_directory') AS d");
    const dataDir = dirs[0]!.d;
    expect(existsSync(dataDir)).toBe(true);
    await other.stop();
    expect(existsSync(dataDir)).toBe(false);
    const client = new pg.Client({ connectionString: other.adminUrl, connectionTimeoutMillis: 2000 });
    await expect(client.connect()).rejects.toThrow();
  });

  it('is stopped and removed even when the test process is killed outright', async () => {
    const work = await mkdtemp(join(tmpdir(), 'desk-pg-kill-'));
    try {
      const entry = join(work, 'entry.ts');
      await writeFile(
        entry,
        `import { startPgCluster } from ${JSON.stringify(join(process.cwd(), 'test/support/pgCluster.ts'))};
         startPgCluster().then(async (c) => {
           const { rows } = await c.query("SELECT current_setting('data_directory') AS d");
           console.log(JSON.stringify({ port: c.port, data: rows[0].d }));
           setInterval(() => undefined, 1000);
         });`,
      );
      const script = join(work, 'entry.cjs');
      await build({
        entryPoints: [entry],
        outfile: script,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        logLevel: 'silent',
      });
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const started = await new Promise<{ port: number; data: string }>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) =>
          resolve(JSON.parse(d.toString()) as { port: number; data: string }),
        );
        child.once('exit', (code) => reject(new Error(`the child ended first (${code})`)));
      });
      expect(existsSync(started.data)).toBe(true);
      child.kill('SIGKILL');
      const deadline = Date.now() + 15_000;
      while (existsSync(started.data) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(existsSync(started.data)).toBe(false);
      const client = new pg.Client({
        host: '127.0.0.1',
        port: started.port,
        user: 'postgres',
        connectionTimeoutMillis: 2000,
      });
      await expect(client.connect()).rejects.toThrow();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
