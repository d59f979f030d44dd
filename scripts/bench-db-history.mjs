// A year of history against the service emulator (issue 19): one environment holding N donations
// (default 1,000,000) made by 10 uploads of N/10, the service being the emulator in a process of its
// own (so its memory is not counted as the app's). Prints, as the median of R runs with each run:
//   - `donation-desk report --month M --json` with its refresh, on a data folder holding only the ten
//     uploads' ledger (the refresh reads all N donations from the service): time and peak memory;
//   - `donation-desk donations --bulk ID --json` of one upload's N/10 donations (read from the
//     service, stored, written out) on the folder holding all N: time and peak memory;
//   - in Chromium through the local bridge (browser mode), on the folder holding all N: Reconcile's
//     first page shown (first donation row and the totals) and the month report shown (button to
//     "Reconciled"/"Does not add up" on screen, its refresh included).
//
// How the N donations get into the emulator: written straight into its persistence, the
// `donations.log` it appends to and reloads at start (`emulator/core.ts`), one line per donation of
// each bulk, in creation order, with the upload's row reference in the metadata; the app's data folder
// gets the ten uploads' ledger through the app's LedgerStore. Uploading 10 files of 100,000 through
// the emulator's upload host would take many minutes on this machine and measure the upload, which
// other benches time; what is timed here starts where those uploads end. The app side talks to the
// emulator over HTTP with the paging the spec gives (pages of 250, links.next).
//
// Usage: node scripts/bench-db-history.mjs [--donations N] [--runs R] [--only report,bulk,browser] [--keep]
//        (after `npm run build`)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { rawText } from './esbuildRawText.mjs';
import { cliRunner } from './benchCli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const donations = arg('--donations', 1_000_000);
const bulks = 10;
const runs = arg('--runs', 3);
const keep = process.argv.includes('--keep');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(process.argv[onlyAt + 1].split(',')) : null;
const wanted = (name) => !only || only.has(name);
const ENVIRONMENT = 'sandbox';
const CLIENT = { id: 'demo-client', secret: 'demo-secret' };
/** The first upload's bulk id as the seed gives it (bulkIdOf(0) in bench-db-history-tasks.ts). */
const BULK_0 = '000000b0-0000-4000-8000-000000000000';

const work = mkdtempSync(join(tmpdir(), 'dd-bench-history-'));
const tasks = join(work, 'tasks.cjs');
await build({
  entryPoints: [join(root, 'scripts', 'bench-db-history-tasks.ts')],
  outfile: tasks,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['electron', '@photostructure/sqlite'],
  logLevel: 'warning',
  plugins: [rawText],
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const runCli = cliRunner(work);
const nodeEnv = { ...process.env, NODE_PATH: join(root, 'node_modules') };

function task(name, ...args) {
  const result = spawnSync(process.execPath, [tasks, name, ...args], {
    encoding: 'utf8',
    env: nodeEnv,
    timeout: 30 * 60_000,
  });
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

// The month of the uploads: this one, two hours ago (the emulator's clock is the real one, frozen).
const nowMs = Date.now();
const createdAtMs = nowMs - 2 * 3600_000;
const month = new Date(createdAtMs).toISOString().slice(0, 7);

console.log(
  `History bench: ${donations.toLocaleString('en-US')} donations in ${bulks} uploads against the emulator, ${runs} runs each (2 shared cores: figures are noisy; load average ${loadavg()[0].toFixed(1)}). CPU: the command's own user + system time.`,
);
const emuDir = join(work, 'emulator');
const base = join(work, 'ledger-only');
const seededEmu = task(
  'emulator',
  emuDir,
  String(donations),
  String(bulks),
  String(createdAtMs),
  String(nowMs),
);
const seededLedger = task(
  'ledger',
  base,
  String(donations),
  String(bulks),
  ENVIRONMENT,
  new Date(createdAtMs).toISOString(),
);
console.log(
  `Seeded the emulator's donation log in ${fmt(seededEmu.seconds, 1)} s and the data folder's ledger in ${fmt(seededLedger.seconds, 1)} s.`,
);

/** The emulator in a process of its own, clock frozen; resolves with its addresses. */
async function startEmulatorProcess() {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      join(root, 'out', 'emulator', 'index.cjs'),
      '--port',
      '0',
      '--upload-port',
      '0',
      '--time-scale',
      '0',
      '--data-dir',
      emuDir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const apiBase = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${output}`)), 10 * 60_000);
    child.stdout.on('data', (d) => {
      output += d.toString();
      const match = /API base:\s+(\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (d) => (output += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited with ${code}:\n${output}`));
    });
  });
  console.log(
    `The emulator loaded its ${donations.toLocaleString('en-US')} donations in ${fmt((performance.now() - started) / 1000, 1)} s.`,
  );
  return {
    apiBase,
    tokenUrl: `${apiBase}/oauth2/token`,
    async advance(seconds) {
      const res = await fetch(`${apiBase}/_emulator/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: seconds }),
      });
      if (!res.ok) throw new Error(`advancing the emulator's clock: ${res.status} ${await res.text()}`);
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // Its state is thrown away with the folder: no need to wait for a save.
        child.kill('SIGKILL');
      }),
  };
}

const emu = await startEmulatorProcess();
const appEnv = {
  ...nodeEnv,
  DONATION_DESK_CLIENT_ID: CLIENT.id,
  DONATION_DESK_CLIENT_SECRET: CLIENT.secret,
  DONATION_DESK_SANDBOX_BASE_URL: emu.apiBase,
  DONATION_DESK_SANDBOX_TOKEN_URL: emu.tokenUrl,
};

function cli(dataDir, args) {
  // The machine's load as each run starts: its wall time is that of a shared machine.
  const load = loadavg()[0];
  const { seconds, peakMb, cpu, failure } = runCli({
    dataDir,
    environment: ENVIRONMENT,
    args,
    env: appEnv,
    keepStdout: false,
  });
  return { seconds, peakMb, cpu, load, ...(failure ? { failure } : {}) };
}

function report(title, target, results, unit = 'cli') {
  const failed = results.filter((x) => x.failure).length;
  const one =
    unit === 'cli'
      ? (x) =>
          `${fmt(x.seconds)} s (CPU ${fmt(x.cpu, 1)} s) / ${x.peakMb} MB at load ${fmt(x.load, 1)}${x.failure ? ` (${x.failure})` : ''}`
      : (x) => `${fmt(x.seconds)} s${x.failure ? ` (${x.failure})` : ''}`;
  const figure = failed
    ? `NOT MEASURED: ${failed} of ${results.length} runs failed (see below)`
    : unit === 'cli'
      ? `median ${fmt(median(results.map((x) => x.seconds)))} s (CPU ${fmt(median(results.map((x) => x.cpu)), 1)} s), peak ${median(results.map((x) => x.peakMb))} MB`
      : `median ${fmt(median(results.map((x) => x.seconds)))} s`;
  console.log(
    `${title}: ${figure}  [target ${target}]\n    runs: ${results.map(one).join('; ')}  (load average now ${loadavg()[0].toFixed(1)})`,
  );
  if (failed) process.exitCode = 1;
}

const full = join(work, 'full');
try {
  // report --month with its refresh: each run on a fresh copy of the ledger-only folder, so each
  // reads all N donations from the service. The first run's folder is kept (it then holds all N).
  if (wanted('report') || wanted('bulk') || wanted('browser')) {
    const results = [];
    for (let r = 0; r < (wanted('report') ? runs : 1); r++) {
      const folder = r === 0 ? full : join(work, `report-${r}`);
      cpSync(base, folder, { recursive: true });
      results.push(cli(folder, ['report', '--month', month, '--json']));
      if (r > 0) rmSync(folder, { recursive: true, force: true });
    }
    if (wanted('report'))
      report(
        `report --month ${month} --json, refresh reading ${donations.toLocaleString('en-US')} donations from the emulator`,
        '≤ 60 s, ≤ 500 MB',
        results,
      );
  }
  if (wanted('bulk')) {
    const results = [];
    for (let r = 0; r < runs; r++) results.push(cli(full, ['donations', '--bulk', BULK_0, '--json']));
    report(
      `donations --bulk <one upload> --json, ${(donations / bulks).toLocaleString('en-US')} donations read from the emulator, stored and written out, on the folder holding all`,
      '≤ 300 MB',
      results,
    );
  }
  if (wanted('browser')) {
    // The month closed: the service's clock moved on a year, every donation final; one refresh
    // stores the final states, so the screen's refresh finds nothing still open to read.
    await emu.advance(400 * 86_400);
    const settled = cli(full, ['report', '--month', month, '--json']);
    console.log(
      `Every donation final at the service; refreshed once more: ${fmt(settled.seconds)} s / ${settled.peakMb} MB.`,
    );
    writeFileSync(
      join(full, 'settings.json'),
      JSON.stringify({
        environment: ENVIRONMENT,
        firstRunDone: true,
        remotes: {
          sandbox: {
            addresses: { baseUrl: emu.apiBase, tokenUrl: emu.tokenUrl, programDomain: '' },
            clientId: CLIENT.id,
          },
        },
      }),
    );
    const first = [];
    const monthReport = [];
    for (let r = 0; r < runs; r++) {
      const timed = await browserRun(full);
      first.push({ seconds: timed.firstPage, ...(timed.failure ? { failure: timed.failure } : {}) });
      monthReport.push({ seconds: timed.report, ...(timed.failure ? { failure: timed.failure } : {}) });
    }
    report(
      "Chromium: Reconcile's first page shown (rows and totals), bridge started afresh",
      '≤ 0.5 s',
      first,
      'browser',
    );
    report(
      'Chromium: month report shown (Show report to its verdict, refresh included)',
      '≤ 1 s',
      monthReport,
      'browser',
    );
  }
} finally {
  await emu.stop();
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** One run in a fresh bridge and browser: the app opened on Prepare, then Reconcile, then the report. */
async function browserRun(dataDir) {
  const bridge = spawn(process.execPath, [join(root, 'out', 'bridge', 'index.cjs'), '--data-dir', dataDir], {
    env: appEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bridge did not start:\n${printed}`)), 60_000);
    bridge.stdout.on('data', (d) => {
      printed += d.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#secret=[A-Za-z0-9_-]+)/.exec(printed);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    bridge.stderr.on('data', (d) => (printed += d.toString()));
    bridge.once('exit', () => reject(new Error(printed)));
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.goto(url);
    await page.goto(`${new URL(url).origin}/#/prepare`);
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
    // Reconcile opened from the app (the navigation, not a page load): to its first row and totals.
    const started = performance.now();
    await page.goto(`${new URL(url).origin}/#/reconcile`);
    await page.getByTestId('donation-row').first().waitFor({ timeout: 120_000 });
    await page.getByTestId('status-CLEARED-USD').waitFor({ timeout: 120_000 });
    const firstPage = (performance.now() - started) / 1000;
    const asked = performance.now();
    await page.getByRole('button', { name: 'Show report' }).click();
    await page.getByTestId('report-reconciled').first().waitFor({ timeout: 600_000 });
    const reportSeconds = (performance.now() - asked) / 1000;
    return { firstPage, report: reportSeconds };
  } catch (e) {
    return {
      firstPage: NaN,
      report: NaN,
      failure: e instanceof Error ? e.message.split('\n')[0] : String(e),
    };
  } finally {
    await browser.close();
    await new Promise((resolve) => {
      if (bridge.exitCode !== null) return resolve();
      bridge.once('exit', resolve);
      bridge.kill('SIGTERM');
    });
  }
}
