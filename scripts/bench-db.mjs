// The data folder's SQLite database at history scale (issue 13): one environment holding N donations
// (default 1,000,000) from 10 uploads. Seeds a fresh data folder through the app's own stores, then
// times, each in a fresh process and several runs (median printed beside every run's figures):
//   - the store's side of refreshing one upload of N/10 donations (network left out);
//   - Reconcile's first page on screen: the services' answers to what the area asks when it opens
//     (50 donations and their count, the declined list, the totals and control totals), by SQL;
//   - the month-end report, as the screen asks for it (services) and as `report --month --cached`;
//   - the store side of `donations --bulk ID --json` (cached pages written out as JSON), peak memory;
// and prints the database's size on disk. Nothing fails on a slow figure: the machine is shared.
//
// With --against REF (a git commit or branch), the refresh is also timed with that commit's store on
// a folder seeded the same way by that commit, run for run on the same upload (which goes first
// alternating), and printed beside each figure.
//
// Usage: node scripts/bench-db.mjs [--donations N] [--bulks B] [--metadata PAIRSxCHARS] [--runs R] [--keep] [--only refresh,firstPage,…]
//          [--against REF]   (after `npm run build`)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rawText } from './esbuildRawText.mjs';
import { cliRunner } from './benchCli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const donations = arg('--donations', 1_000_000);
const bulks = arg('--bulks', 10);
// --metadata 100x190: each donation carries that many metadata pairs of that many characters.
const metadataAt = process.argv.indexOf('--metadata');
if (metadataAt >= 0) process.env.DESK_BENCH_METADATA = process.argv[metadataAt + 1];
const wide = metadataAt >= 0;
const runs = arg('--runs', 3);
const keep = process.argv.includes('--keep');
// --only refresh,firstPage: only the figures named (refresh, firstPage, firstPageWarm, report, cli, listJson).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set(process.argv[onlyAt + 1].split(',')) : null;
const wanted = (name) => !only || only.has(name);
const againstAt = process.argv.indexOf('--against');
const against = againstAt >= 0 ? process.argv[againstAt + 1] : null;

const work = mkdtempSync(join(tmpdir(), 'dd-bench-db-'));
const dataDir = join(work, 'data');
const tasks = join(work, 'tasks.cjs');
const bundle = (source, outfile) =>
  build({
    entryPoints: [join(source, 'scripts', 'bench-db-tasks.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron', '@photostructure/sqlite'],
    // The older sources sit outside the checkout: their packages are this checkout's.
    nodePaths: [join(root, 'node_modules')],
    logLevel: 'warning',
    plugins: [rawText],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
await bundle(root, tasks);
// The previous approach: that commit's sources, bundled the same way, run on a copy of the seed.
const before = against ? { tasks: join(work, 'tasks-before.cjs'), dataDir: join(work, 'data-before') } : null;
if (before) {
  const source = join(work, 'source-before');
  mkdirSync(source);
  const archive = execFileSync('git', ['archive', against, 'electron', 'shared', 'scripts'], {
    cwd: root,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', source], { input: archive });
  await bundle(source, before.tasks);
}
const runCli = cliRunner(work);
const env = { ...process.env, NODE_PATH: join(root, 'node_modules') };

function task(name, ...args) {
  return taskIn(tasks, dataDir, name, ...args);
}

function taskIn(bundleFile, folder, name, ...args) {
  const result = spawnSync(process.execPath, [bundleFile, name, folder, ...args], {
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
    timeout: 30 * 60_000,
  });
  if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

function cli(args) {
  const { seconds, peakMb, exit, failure } = runCli({ dataDir, environment: 'offline', args, env });
  return { seconds, peakMb, exit, ...(failure ? { failure } : {}) };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const fmt = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function measure(name, title, target, once) {
  if (!wanted(name)) return [];
  const results = [];
  for (let r = 0; r < runs; r++) results.push(once(r));
  const one = (x) => `${fmt(x.seconds)} s / ${x.peakMb} MB${x.failure ? ` (${x.failure})` : ''}`;
  const each = results.map((x) => `${one(x)}${x.before ? ` (before: ${one(x.before)})` : ''}`);
  const was = results.every((x) => x.before)
    ? ` (before: median ${fmt(median(results.map((x) => x.before.seconds)))} s, peak ${median(results.map((x) => x.before.peakMb))} MB)`
    : '';
  // A run that failed measured its failure, not the work: say so instead of a median.
  const failed = results.filter((x) => x.failure).length;
  const figure = failed
    ? `NOT MEASURED: ${failed} of ${results.length} runs failed (see below)`
    : `median ${fmt(median(results.map((x) => x.seconds)))} s, peak ${median(results.map((x) => x.peakMb))} MB`;
  console.log(`${title}: ${figure}${was}  [target ${target}]\n    runs: ${each.join('; ')}`);
  if (failed) process.exitCode = 1;
  return results;
}

console.log(
  `Database bench: ${donations.toLocaleString('en-US')} donations in ${bulks} uploads, ${runs} runs each (2 shared cores: figures are noisy).`,
);
const seeded = task('seed', String(donations), String(bulks));
console.log(
  `Seeded through the app's stores in ${fmt(seeded.seconds, 1)} s (peak ${seeded.peakMb} MB). ` +
    `desk.db: ${(seeded.bytes / 1e6).toFixed(1)} MB, ${((seeded.bytes / 1e6) * (1_000_000 / donations)).toFixed(0)} MB per 1,000,000 donations.`,
);
if (before) {
  // Seeded through that commit's own stores (its schema may be older than this one's).
  const then = taskIn(before.tasks, before.dataDir, 'seed', String(donations), '10');
  console.log(
    `Refreshes are also timed as of ${against} ("before"), on a folder seeded the same way by its stores: desk.db ${(then.bytes / 1e6).toFixed(1)} MB.`,
  );
}
/** A refresh now and, with --against, the same refresh as before on the copy, alternating which goes first. */
const refreshBoth = (r, bulkId, changed) => {
  const now = () => task('refresh', bulkId, changed);
  if (!before) return now();
  const then = () => taskIn(before.tasks, before.dataDir, 'refresh', bulkId, changed);
  if (r % 2 === 0) {
    const result = now();
    return { ...result, before: then() };
  }
  const previous = then();
  return { ...now(), before: previous };
};
// Runs 0.. refresh bulks 0.. with every donation's state changed; runs 5.. refresh bulks 5.. (never
// refreshed before) with 1 in 100 changed and the rest answered exactly as stored.
measure(
  'refresh',
  `Refresh of one upload of ${(donations / 10).toLocaleString('en-US')} donations, store side, every state changed`,
  '≤ 3 s',
  (r) => refreshBoth(r, `bulk-${r % 5}`, 'all'),
);
measure(
  'refresh',
  `Refresh of one upload of ${(donations / 10).toLocaleString('en-US')} donations, store side, 1 in 100 changed`,
  '≤ 3 s',
  (r) => refreshBoth(r, `bulk-${5 + (r % 5)}`, 'few'),
);
measure(
  'firstPage',
  "Reconcile's first page on screen (page, declined list, totals), fresh process",
  '≤ 0.5 s',
  () => task('firstPage'),
);
measure('firstPageWarm', "Reconcile's first page on screen, opened again in a running app", '≤ 0.5 s', () =>
  task('firstPageWarm'),
);
measure('report', 'Month-end report 2026-11, screen (services)', '≤ 1 s', () => task('report', '2026-11'));
measure('cli', 'donation-desk report --month 2026-11 --cached --json', '≤ 1 s', () =>
  cli(['report', '--month', '2026-11', '--cached', '--json']),
);
measure(
  'listJson',
  `donations --bulk bulk-0 --json, store side (${Math.ceil(donations / bulks).toLocaleString('en-US')} donations written out${wide ? `, metadata ${process.env.DESK_BENCH_METADATA}` : ''})`,
  wide ? '≤ 1 GB' : '≤ 300 MB',
  () => task('listJson', 'bulk-0', join(work, 'list.json')),
);
console.log(
  'The service read before `donations --bulk` lists is not in this figure: it stores each page as it comes and keeps only ids.',
);
if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
