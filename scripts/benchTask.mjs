// What the benchmarks that time a task in fresh processes share: the task file (TypeScript under
// scripts/) bundled into a temp folder, a way to run it that returns the figures it printed last (one
// JSON line), their number options, and how they print milliseconds. The temp folder is removed after.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { rawText } from './esbuildRawText.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The number after `name` on the command line, or `fallback`. */
export const numberArg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

export const ms = (n) => `${n.toFixed(2)} ms`;

/**
 * Bundles scripts/`taskFile` and calls `use(run)`: run(args, label?) starts the task in a fresh
 * process with those arguments and returns its last line's JSON (throws with the end of its stderr,
 * after `label`, when it fails).
 */
export async function withBenchTask(taskFile, use) {
  const work = mkdtempSync(join(tmpdir(), `dd-${taskFile.replace(/-task\.ts$/, '')}-`));
  const task = join(work, 'task.cjs');
  try {
    await build({
      entryPoints: [join(root, 'scripts', taskFile)],
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
    const run = (args, label) => {
      const result = spawnSync(process.execPath, [task, ...args.map(String)], { encoding: 'utf8', env });
      if (result.status !== 0) {
        throw new Error(`${label ? `${label} failed: ` : ''}${result.stderr.slice(-2000)}`);
      }
      return JSON.parse(result.stdout.trim().split('\n').pop());
    };
    await use(run);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
