import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runCliProcess, type CliRun } from '../cliProcess';
import type { RunningEmulator } from '../../../emulator/server';
import { startEmulatorWithCauses } from '../../support/cliOnEmulator';
import { bulkDonations } from '../upload/harness';

/*
 * The data folder's database used by real CLI processes: killed with SIGKILL in the middle of a
 * refresh and of the one-time import of version 0.1's JSON files, checked and backed up while in
 * use, and two processes racing `upload` and `resume` on one folder.
 */

let dir: string;
let cli: string;
let emu: RunningEmulator;
let recipients: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-db-cli-'));
  cli = await buildCli(dir);
  ({ emu, recipients } = await startEmulatorWithCauses(120));
}, 60_000);

afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

function runCli(args: string[], dataDir: string, killAfterMs?: number, timeoutMs = 90_000): Promise<CliRun> {
  return runCliProcess(cli, emu, args, dataDir, { killAfterMs, timeoutMs });
}

/** A read-only look at a data folder's database, as another program would take it. */
function peek<T>(dataDir: string, sql: string, ...params: string[]): T[] {
  const db = new DatabaseSync(join(dataDir, 'desk.db'), { readOnly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const MAPPING = {
  columns: {
    'Charity ID': 'recipientId',
    Amount: 'amount',
    Currency: 'currencyCode',
    Employee: 'metadata.employee',
  },
};

async function giftsFile(name: string, rows: number): Promise<{ csv: string; mapping: string }> {
  const csv = join(dir, `${name}.csv`);
  const mapping = join(dir, `${name}-mapping.json`);
  const lines = ['Charity ID,Amount,Currency,Employee'];
  for (let i = 0; i < rows; i++) {
    lines.push(`${recipients[i % recipients.length]},${(i % 40) + 5}.25,USD,${name}-E${i}`);
  }
  await writeFile(csv, `${lines.join('\n')}\n`);
  await writeFile(mapping, JSON.stringify(MAPPING));
  return { csv, mapping };
}

/** Donations per employee over every bulk the final listing names. */
async function perEmployee(stdout: string): Promise<Map<string, number>> {
  const listed = JSON.parse(stdout) as {
    uploads?: Array<{ intents: Array<{ serviceId: string | null }> }>;
    intents?: Array<{ serviceId: string | null }>;
  };
  const uploads = listed.uploads ?? [listed as { intents: Array<{ serviceId: string | null }> }];
  const counts = new Map<string, number>();
  for (const u of uploads) {
    for (const i of u.intents) {
      if (!i.serviceId) continue;
      for (const d of await bulkDonations(emu, i.serviceId)) {
        const employee = d.attributes.metadata?.employee ?? '?';
        counts.set(employee, (counts.get(employee) ?? 0) + 1);
      }
    }
  }
  return counts;
}

describe('two processes on one data folder', () => {
  it('racing upload, upload and resume never send the same rows twice', async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = join(dir, `race-${round}`);
      const rows = 40;
      const { csv, mapping } = await giftsFile(`race${round}`, rows);
      const upload = ['upload', csv, '--mapping', mapping, '--wait', '--json'];
      const runs = await Promise.all([
        runCli(upload, dataDir),
        runCli(upload, dataDir),
        runCli(['resume', '--wait', '--json'], dataDir),
      ]);
      const final = await runCli(['resume', '--wait', '--json'], dataDir);
      expect(final.code, `${final.stderr}\n${runs.map((r) => r.stderr).join('\n')}`).toBe(0);
      const counts = await perEmployee(final.stdout);
      const context = `round ${round}: exits ${runs.map((r) => r.code).join(', ')}; ${runs.map((r) => r.stderr.trim()).join(' | ')}`;
      expect(counts.size, context).toBe(rows);
      expect(
        [...counts.entries()].filter(([, n]) => n !== 1),
        context,
      ).toEqual([]);
      // The one that lost the race said why, in words.
      for (const r of runs.filter((x) => x.code === 2)) {
        expect(`${r.stderr}${r.stdout}`, context).toMatch(/using the upload ledger|already|BUSY/);
      }
    }
  }, 120_000);
});

describe('killed with SIGKILL', () => {
  it('in the middle of a refresh: the database stays whole and the next refresh has every donation once', async () => {
    const dataDir = join(dir, 'refresh');
    const rows = 1200;
    const { csv, mapping } = await giftsFile('refresh', rows);
    const sent = await runCli(['upload', csv, '--mapping', mapping, '--wait', '--json'], dataDir);
    expect(sent.code, sent.stderr).toBe(0);
    await fetch(`${emu.apiBaseUrl}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 30 }),
    });
    try {
      const seen: number[] = [];
      for (const at of [500, 900, 1400, 2200]) {
        const killed = await runCli(['donations', '--page-size', '25', '--json'], dataDir, at);
        const check = await runCli(['db', 'check', '--json'], dataDir);
        expect(check.code, `${check.stderr}${check.stdout}`).toBe(0);
        seen.push(peek<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM donation')[0]?.n ?? 0);
        if (!killed.killed) expect(killed.code, killed.stderr).toBe(0);
      }
      const done = await runCli(['donations', '--json'], dataDir);
      expect(done.code, done.stderr).toBe(0);
      const listed = JSON.parse(done.stdout) as { donations: Array<{ id: string; row: unknown }> };
      expect(new Set(listed.donations.map((d) => d.id)).size).toBe(rows);
      expect(listed.donations.every((d) => d.row !== null)).toBe(true);
      const stored = peek<{ n: number; ids: number }>(
        dataDir,
        'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM donation',
      );
      expect(stored[0]).toEqual({ n: rows, ids: rows });
      // What a killed run had saved stayed saved: the counts never went down.
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    } finally {
      await fetch(`${emu.apiBaseUrl}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reset: true }),
      });
    }
  }, 150_000);

  it('in the middle of the JSON import: all or nothing each time, the file never lost, imported once', async () => {
    const donations = 30_000;
    const legacy = {
      version: 1,
      lastRefreshAt: '2026-11-20T10:00:00.000Z',
      singles: [],
      donations: Array.from({ length: donations }, (_, i) => ({
        resource: {
          type: 'donations',
          id: `legacy-${i}`,
          attributes: {
            destination: { recipientId: 'r-1' },
            funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount: 100 + i },
            metadata: { employee: `E${i}`, note: 'x'.repeat(60) },
            state: { processingStatus: 'CLEARED', statusLastUpdated: '2026-11-19T00:00:00.000Z' },
            bulkId: `bulk-${i % 10}`,
          },
        },
        history: [
          { state: 'INITIATED', seenAt: '2026-11-18T00:00:00.000Z', statusLastUpdated: null },
          { state: 'CLEARED', seenAt: '2026-11-19T00:00:00.000Z', statusLastUpdated: null },
        ],
        row: { workspaceId: 'ws-1', rowKey: i, rowNumber: i + 2, method: 'reference' },
        firstSeenAt: '2026-11-18T00:00:00.000Z',
        lastSeenAt: '2026-11-19T00:00:00.000Z',
        resolution: null,
        replaces: null,
      })),
    };
    const text = JSON.stringify(legacy);
    const moments = [250, 500, 800, 1200, 1700, 2400];
    for (const [run, at] of moments.entries()) {
      const dataDir = join(dir, `import-${run}`);
      // --base-url makes the environment "custom": its store was donations-custom.json.
      const file = join(dataDir, 'reconcile', 'donations-custom.json');
      await mkdir(join(dataDir, 'reconcile'), { recursive: true });
      await writeFile(file, text);
      const args = ['report', '--month', '2026-11', '--cached', '--json'];
      const killed = await runCli(args, dataDir, at + Math.floor(Math.random() * 150));
      const context = `run ${run} at ${at} ms: ${killed.killed ? 'killed' : `exit ${killed.code}`}`;
      // The file is in place or set aside as the backup: never gone.
      expect(existsSync(file) || existsSync(`${file}.pre-sqlite`), context).toBe(true);
      if (existsSync(join(dataDir, 'desk.db'))) {
        const tables = peek<{ name: string }>(
          dataDir,
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('donation', 'imported') ORDER BY name",
        ).map((t) => t.name);
        // Killed before the schema's one transaction committed: the file is there, and no table yet.
        expect([[], ['donation', 'imported']], context).toContainEqual(tables);
        if (tables.length > 0) {
          const marks = peek<{ n: number }>(
            dataDir,
            "SELECT count(*) AS n FROM imported WHERE source = 'donations:custom'",
          );
          const rows = peek<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM donation');
          // All or nothing: the rows and their mark are one transaction.
          expect(rows[0]?.n, context).toBe(marks[0]?.n === 1 ? donations : 0);
        }
      }
      const again = await runCli(args, dataDir);
      expect(again.code, `${context}; again: ${again.stderr}`).not.toBe(null);
      expect([0, 1], `${context}; again: ${again.stderr}`).toContain(again.code);
      expect(peek<{ n: number }>(dataDir, 'SELECT count(*) AS n FROM donation')[0]?.n, context).toBe(
        donations,
      );
      expect(existsSync(file), context).toBe(false);
      expect(existsSync(`${file}.pre-sqlite`), context).toBe(true);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe('donation-desk db', () => {
  it('checks and backs up while another process uses the folder, and names the backup when damaged', async () => {
    const dataDir = join(dir, 'check');
    const none = await runCli(['db', 'check'], dataDir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no database in .* yet/);

    const { csv, mapping } = await giftsFile('check', 30);
    // An upload running while the check and the backup are made.
    const uploading = runCli(['upload', csv, '--mapping', mapping, '--wait', '--json'], dataDir);
    let checked: CliRun | null = null;
    for (let i = 0; i < 50 && !checked; i++) {
      await new Promise((r) => setTimeout(r, 100));
      if (existsSync(join(dataDir, 'desk.db'))) checked = await runCli(['db', 'check'], dataDir);
    }
    expect(checked?.code, checked?.stderr).toBe(0);
    expect(checked?.stdout).toMatch(/desk\.db is whole/);
    const out = join(dir, 'copies', 'desk-copy.db');
    const backedUp = await runCli(['db', 'backup', '--out', out, '--json'], dataDir);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(JSON.parse(backedUp.stdout)).toMatchObject({ ok: true, path: out });
    expect((await uploading).code).toBe(0);
    const automatic = await runCli(['db', 'backup'], dataDir);
    expect(automatic.code, automatic.stderr).toBe(0);
    const newest = /to (\S+backups\S+\.db)/.exec(automatic.stdout)?.[1];
    expect(newest).toBeDefined();

    // Damage: the check and every other command say which file, and which backup to restore.
    await writeFile(join(dataDir, 'desk.db'), Buffer.alloc(16_384, 9));
    await rm(join(dataDir, 'desk.db-wal'), { force: true });
    await rm(join(dataDir, 'desk.db-shm'), { force: true });
    const damaged = await runCli(['db', 'check'], dataDir);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain(join(dataDir, 'desk.db'));
    expect(damaged.stderr).toContain(newest as string);
    const report = await runCli(['report', '--month', '2026-11', '--cached'], dataDir);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain(newest as string);
  }, 120_000);
});
