import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, runCliProcess, type CliRun } from '../cliProcess';
import type { RunningEmulator } from '../../../emulator/server';
import { startEmulatorWithCauses } from '../../support/cliOnEmulator';
import { bulkDonations } from './harness';

/*
 * The upload process is killed with SIGKILL at random moments (while preparing, creating the intent,
 * uploading, or following), then started again, possibly killed again, and finally run to the end.
 * For every run the emulator must hold each row's donation exactly once: none lost, none twice.
 */

const ROWS = 60;
const RUNS = 6;

let dir: string;
let cli: string;
let emu: RunningEmulator;
let recipients: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-kill-'));
  cli = await buildCli(dir);
  // Fast virtual time: a bulk goes from upload to PROCESSED in a few real seconds.
  ({ emu, recipients } = await startEmulatorWithCauses(120));
  // A little latency widens the windows in which a kill lands mid-call.
  await fetch(`${emu.apiBaseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs: 40 }),
  });
}, 60_000);

afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});

function runCli(args: string[], dataDir: string, killAfterMs?: number, timeoutMs = 60_000): Promise<CliRun> {
  return runCliProcess(cli, emu, args, dataDir, { killAfterMs, timeoutMs });
}

/** The ledger's intent states as a killed process left them (for diagnosing a failed run). */
async function lastStates(dataDir: string): Promise<string> {
  const { DatabaseSync } = await import('@photostructure/sqlite');
  try {
    const db = new DatabaseSync(join(dataDir, 'desk.db'), { readOnly: true });
    try {
      const rows = db.prepare('SELECT state FROM ledger_intent ORDER BY created_at').all() as Array<{
        state: string;
      }>;
      return rows.map((r) => r.state).join(',') || '(nothing recorded)';
    } finally {
      db.close();
    }
  } catch (e) {
    return `(no ledger: ${e instanceof Error ? e.message : String(e)})`;
  }
}

async function totalDonations(): Promise<number> {
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    counts: { donations: number };
  };
  return info.counts.donations;
}

describe('killed and restarted', () => {
  it(`ends with every row's donation exactly once after SIGKILLs during upload and polling (${RUNS} runs)`, async () => {
    const mapping = join(dir, 'mapping.json');
    await writeFile(
      mapping,
      JSON.stringify({
        columns: {
          'Charity ID': 'recipientId',
          Amount: 'amount',
          Currency: 'currencyCode',
          Employee: 'metadata.employee',
        },
      }),
    );
    // Kill moments spread over start-up, preparation, intent creation, upload and polling.
    const killMoments = [350, 550, 750, 1000, 1500, 2500];
    for (let run = 0; run < RUNS; run++) {
      const dataDir = join(dir, `data-${run}`);
      const csv = join(dir, `gifts-${run}.csv`);
      const lines = ['Charity ID,Amount,Currency,Employee'];
      for (let i = 0; i < ROWS; i++) {
        lines.push(
          `${recipients[i % recipients.length]},${(i % 40) + 5}.${String(i % 100).padStart(2, '0')},USD,R${run}-E${i}`,
        );
      }
      await writeFile(csv, `${lines.join('\n')}\n`);
      const before = await totalDonations();
      const jitter = Math.floor(Math.random() * 200);
      const uploadArgs = ['upload', csv, '--mapping', mapping, '--wait', '--json'];

      const first = await runCli(uploadArgs, dataDir, (killMoments[run] as number) + jitter);
      if (process.env.DD_KILL_DEBUG) console.log(run, first.killed, await lastStates(dataDir));
      // Restart: finish what was left, and kill that one too while it follows.
      const second = await runCli(['resume', '--wait', '--json'], dataDir, 400 + jitter);
      const third = await runCli(['resume', '--wait', '--json'], dataDir);
      expect([0, 1], third.stderr).toContain(third.code);
      // Uploading the same file again: refused by the duplicate guard if the first run got as far as
      // recording it; sent if it did not. Either way each row ends up sent once.
      const again = await runCli(uploadArgs, dataDir);
      const final = await runCli(['resume', '--wait', '--json'], dataDir);
      expect(final.code, `${final.stderr}\n${final.stdout}`).toBe(0);

      const listed = JSON.parse(final.stdout) as {
        uploads?: Array<{ intents: Array<{ serviceId: string | null }> }>;
        intents?: Array<{ serviceId: string | null }>;
      };
      const uploads = listed.uploads ?? [listed as { intents: Array<{ serviceId: string | null }> }];
      const bulkIds = uploads.flatMap((u) =>
        u.intents.map((i) => i.serviceId).filter((s): s is string => s !== null),
      );
      const perEmployee = new Map<string, number>();
      for (const bulkId of bulkIds) {
        for (const d of await bulkDonations(emu, bulkId)) {
          const employee = d.attributes.metadata?.employee ?? '?';
          perEmployee.set(employee, (perEmployee.get(employee) ?? 0) + 1);
        }
      }
      const context = `run ${run}: first ${first.killed ? 'killed' : `exit ${first.code}`}, second ${second.killed ? 'killed' : `exit ${second.code}`}, again exit ${again.code}`;
      expect(perEmployee.size, context).toBe(ROWS);
      expect(
        [...perEmployee.entries()].filter(([, n]) => n !== 1),
        context,
      ).toEqual([]);
      // Nothing reached the service outside the intents the ledger knows.
      expect((await totalDonations()) - before, context).toBe(ROWS);
    }
  }, 150_000);
});
