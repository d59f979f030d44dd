// Workspaces too big for one string, and their upload (issue 19, decision 0119):
// 1. The workspace store on 30,000 rows × 100 cells of 190 characters and on 1,048,576 rows × 14
//    columns: save, reopen, a one-cell edit (and what folding it in writes), each in a fresh
//    process, median of 3 runs with each run's figures beside the target.
// 2. The upload path alone: the workspace the CLI makes from 30,000 rows of 99 metadata values of
//    190 characters plus the row reference, then upload.start to the Offline sandbox (no reader).
// 3. `donation-desk upload --wait` of a 30,000-row CSV with 99 metadata columns of 190 characters
//    plus the row reference (100 pairs, the service's limit) through the Offline sandbox, end to end
//    (sent and processed), then `donations --json` of them: time and peak memory of the CLI (targets
//    ≤ 1.5 GB and ≤ 1 GB), and of the sandbox's own process beside it.
// Usage: npm run build && node scripts/bench-workspace.mjs [--runs 3] [--skip-store] [--skip-upload-path] [--skip-upload]
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { rawText } from './esbuildRawText.mjs';
import { cliRunner } from './benchCli.mjs';

const args = process.argv.slice(2);
const runs = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 3) || 3;
const root = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'bench-workspace-'));
const env = { ...process.env, NODE_PATH: join(root, 'node_modules') };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => (Number.isFinite(n) ? n.toFixed(2) : String(n));

function task(tasks, ...rest) {
  const result = spawnSync(process.execPath, ['--max-old-space-size=4096', tasks, ...rest], {
    encoding: 'utf8',
    env,
    maxBuffer: 1 << 26,
    timeout: 30 * 60_000,
  });
  if (result.status !== 0) return { failure: result.stderr.trim().split('\n').slice(-3).join(' ') };
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

function bundleTasks(outfile) {
  return build({
    entryPoints: [join(root, 'scripts', 'bench-workspace-tasks.ts')],
    outfile,
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
}

try {
  const tasks = join(work, 'tasks.cjs');
  await bundleTasks(tasks);
  if (!args.includes('--skip-store')) {
    for (const [shape, label] of [
      ['wide', '30,000 rows × 100 cells of 190 characters'],
      ['tall', '1,048,576 rows × 14 columns'],
    ]) {
      const figures = { save: [], reopen: [], edit: [] };
      for (let run = 0; run < runs; run++) {
        const folder = join(work, `${shape}-${run}`);
        const saved = task(tasks, 'save', folder, shape);
        figures.save.push(saved);
        if (saved.failure) continue;
        figures.reopen.push(task(tasks, 'reopen', folder, saved.id));
        figures.edit.push(task(tasks, 'edit', folder, saved.id));
        rmSync(folder, { recursive: true, force: true });
      }
      console.log(`\nWorkspace of ${label}`);
      for (const [op, target] of [
        ['save', 'saves (no "Invalid string length")'],
        ['reopen', 'reopens'],
        ['edit', 'a small write'],
      ]) {
        const done = figures[op].filter((f) => !f.failure);
        const each = figures[op]
          .map((f) =>
            f.failure
              ? `failed: ${f.failure}`
              : `${fmt(f.seconds)} s/${f.peakMb} MB${f.foldWrittenMb !== undefined ? `/fold wrote ${fmt(f.foldWrittenMb)} MB` : ''}`,
          )
          .join('; ');
        const mid = done.length
          ? `median ${fmt(median(done.map((f) => f.seconds)))} s, peak ${median(done.map((f) => f.peakMb))} MB`
          : 'no run finished';
        console.log(`  ${op}: ${mid} (target: ${target}) — runs: ${each}`);
      }
    }
  }

  if (!args.includes('--skip-upload-path')) {
    // The upload path without the spreadsheet reader (workspace made in the process, then
    // upload.start to the Offline sandbox): what the store and the upload engine cost on their own.
    const results = [];
    for (let run = 0; run < runs; run++) results.push(task(tasks, 'upload', join(work, `path-${run}`)));
    const done = results.filter((r) => !r.failure);
    console.log(
      '\nUpload path alone (workspace of 30,000 × 99 metadata values of 190 characters + reference → upload.start, Offline sandbox)',
    );
    console.log(
      `  ${done.length ? `median ${fmt(median(done.map((r) => r.seconds)))} s, peak ${median(done.map((r) => r.peakMb))} MB` : 'no run finished'} (target ≤ 1,536 MB) — runs: ${results
        .map((r) => (r.failure ? `failed: ${r.failure}` : `${fmt(r.seconds)} s/${r.peakMb} MB/${r.state}`))
        .join('; ')}`,
    );
  }

  if (!args.includes('--skip-upload')) {
    // The CSV: 30,000 rows, charity, amount, currency and 99 metadata columns of 190 characters.
    const csv = join(work, 'metadata.csv');
    const mapping = join(work, 'mapping.json');
    const columns = Array.from({ length: 99 }, (_, i) => `Meta ${i + 1}`);
    const out = createWriteStream(csv);
    const write = (line) =>
      new Promise((resolve) => (out.write(line) ? resolve() : out.once('drain', resolve)));
    await write(`Charity ID,Amount,Currency,${columns.join(',')}\n`);
    const filler = 'abcdefghijklmnopqrstuvwxyz'.repeat(8);
    // Causes the Offline sandbox knows and accepts (its seeded directory, the same in every data
    // folder), so that the upload is processed and its donations are made.
    const recipients = await sandboxRecipients();
    for (let r = 0; r < 30_000; r++) {
      const meta = columns.map((_, c) => `${r}-${c}-${filler}`.slice(0, 190));
      await write(`${recipients[r % recipients.length]},${(r % 90) + 10}.50,USD,${meta.join(',')}\n`);
    }
    await new Promise((resolve) => out.end(resolve));
    writeFileSync(
      mapping,
      JSON.stringify({
        columns: {
          'Charity ID': 'recipientId',
          Amount: 'amount',
          Currency: 'currencyCode',
          ...Object.fromEntries(columns.map((c, i) => [c, `metadata.m${i + 1}`])),
        },
      }),
    );
    const runCli = cliRunner(work);
    const results = [];
    const listed = [];
    for (let run = 0; run < runs; run++) {
      const dataDir = join(work, `upload-${run}`);
      // End to end: sent, then followed until the sandbox has processed it.
      const upload = runCli({
        dataDir,
        environment: 'offline',
        args: ['upload', csv, '--mapping', mapping, '--skip-invalid', '--wait', '--json'],
        env,
        okExits: [0],
        maxBuffer: 1 << 28,
      });
      if (upload.exit === 0 && !/"state":\s*"PROCESSED"|PROCESSED/.test(upload.stdout))
        upload.failure = 'not processed';
      results.push(upload);
      // Then every donation of it listed as JSON (read from the sandbox, stored, written out).
      listed.push(
        runCli({
          dataDir,
          environment: 'offline',
          args: ['donations', '--json'],
          env,
          okExits: [0],
          keepStdout: false,
        }),
      );
      rmSync(dataDir, { recursive: true, force: true });
    }
    const each = (xs) =>
      xs
        .map(
          (r) =>
            `${fmt(r.seconds)} s/${r.peakMb} MB (sandbox ${r.sandboxPeakMb ?? '—'} MB)/exit ${r.exit}${r.failure ? ` (${r.failure.slice(0, 160)})` : ''}`,
        )
        .join('; ');
    const sandboxMedian = (xs) => {
      const peaks = xs.map((r) => r.sandboxPeakMb).filter((n) => n !== null);
      return peaks.length ? `${median(peaks)} MB` : '—';
    };
    console.log(
      '\nCLI upload --wait of 30,000 rows × 99 metadata columns of 190 characters (+ row reference), Offline sandbox in its own process',
    );
    console.log(
      `  median ${fmt(median(results.map((r) => r.seconds)))} s, CLI peak ${median(results.map((r) => r.peakMb))} MB (target ≤ 1,536 MB); the sandbox's own process ${sandboxMedian(results)} — runs: ${each(results)}`,
    );
    console.log('CLI donations --json of those 30,000 (target ≤ 1,024 MB)');
    console.log(
      `  median ${fmt(median(listed.map((r) => r.seconds)))} s, CLI peak ${median(listed.map((r) => r.peakMb))} MB; the sandbox's own process ${sandboxMedian(listed)} — runs: ${each(listed)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The causes in good standing of the Offline sandbox's seeded directory (the emulator's default seed). */
async function sandboxRecipients() {
  const { startEmulator } = createRequire(import.meta.url)(join(root, 'out', 'emulator', 'index.cjs'));
  const emulator = await startEmulator({ dataDir: join(work, 'directory'), quiet: true });
  try {
    const info = await (await fetch(`${emulator.apiBaseUrl}/_emulator/info`)).json();
    return info.samples.causesInGoodStanding.map((c) => c.id);
  } finally {
    await emulator.close();
  }
}
