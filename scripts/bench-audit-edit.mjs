// What the audit trail adds to the edit path (issue 14): a durable edit of one cell, and of 1,000
// cells at once, in a workspace of N rows (default 100,000), with and without the audit trail
// listening, and the first edit after the import (with the trail, main reads the workspace once then). Each variant in a fresh process, alternated over several runs; the median edit time of
// each run is printed. Nothing fails on a slow figure: the machine is shared.
//
// Usage: node scripts/bench-audit-edit.mjs [--rows N] [--edits E] [--runs R]
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
const rows = arg('--rows', 100_000);
const edits = arg('--edits', 300);
const runs = arg('--runs', 3);

const work = mkdtempSync(join(tmpdir(), 'dd-bench-audit-edit-'));
const task = join(work, 'task.cjs');
try {
  await build({
    entryPoints: [join(root, 'scripts', 'bench-audit-edit-task.ts')],
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
  const figures = { plain: [], audit: [] };
  for (let run = 0; run < runs; run++) {
    for (const variant of ['plain', 'audit']) {
      const result = spawnSync(process.execPath, [task, String(rows), String(edits), variant], {
        encoding: 'utf8',
        env,
      });
      if (result.status !== 0) throw new Error(`${variant} failed: ${result.stderr.slice(-2000)}`);
      figures[variant].push(JSON.parse(result.stdout.trim().split('\n').pop()));
    }
  }
  const ms = (n) => `${n.toFixed(2)} ms`;
  for (const variant of ['plain', 'audit']) {
    const list = figures[variant];
    console.log(
      `${variant === 'audit' ? 'with audit trail   ' : 'without audit trail'}: first edit 1 s after import ${list.map((f) => ms(f.first)).join(', ')}; one cell ${list.map((f) => ms(f.single)).join(', ')}; 1,000 cells ${list.map((f) => ms(f.bulk1000)).join(', ')}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
