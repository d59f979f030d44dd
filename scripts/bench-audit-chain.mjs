// The audit trail's hash chain (issue 18): one durable append, chained as the app writes it, against
// a plain INSERT into the same table as before the chain, alternated; then `audit verify` of a trail
// of N entries (default 1,000,000): time and how much the process grew while checking (the check
// reads a page at a time, so this stays small at any N). Nothing fails on a slow figure.
//
// Usage: node scripts/bench-audit-chain.mjs [--entries N] [--appends A]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rawText } from './esbuildRawText.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const entries = arg('--entries', 1_000_000);
const appends = arg('--appends', 300);

const work = mkdtempSync(join(tmpdir(), 'dd-bench-audit-chain-'));
const task = join(work, 'task.cjs');
try {
  await build({
    entryPoints: [join(root, 'scripts', 'bench-audit-chain-task.ts')],
    outfile: task,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['electron', '@photostructure/sqlite', 'xlsx'],
    logLevel: 'warning',
    plugins: [rawText],
  });
  const env = { ...process.env, NODE_PATH: join(root, 'node_modules') };
  const result = spawnSync(process.execPath, [task, String(entries), String(appends)], {
    encoding: 'utf8',
    env,
  });
  if (result.status !== 0) throw new Error(result.stderr.slice(-2000));
  const f = JSON.parse(result.stdout.trim().split('\n').pop());
  const ms = (n) => `${n.toFixed(2)} ms`;
  console.log(
    `one durable append: chained ${ms(f.chainedMedianMs)}, plain INSERT as before ${ms(f.plainMedianMs)} (medians of ${appends})`,
  );
  console.log(`filling ${entries.toLocaleString('en')} entries: ${f.fillPerEntryUs.toFixed(1)} µs per entry`);
  console.log(
    `audit verify of ${f.check.entries.toLocaleString('en')} entries: ${(f.verifyMs / 1000).toFixed(1)} s, process grew ${f.verifyRssGrowthMb.toFixed(0)} MB while checking (read 2,000 entries a page: the growth should not rise with the size of the trail); whole: ${f.check.whole}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
