// The CLI on a file too large to hold: `validate` and `build` on a generated CSV of about 300 MB
// (2.83 million rows), read in passes a piece at a time. Prints time and peak resident memory
// (target: at most 1.5 GB) as the median of 3 runs, with each run's figures beside the target.
// Usage: npm run build && node scripts/bench-cli-stream.mjs [--rows 2830000] [--runs 3]
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const argValue = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const rowCount = argValue('--rows', 2_830_000);
const runs = argValue('--runs', 3);
const TARGET_GB = 1.5;
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-cli-stream-'));

/** Writes the CSV a megabyte at a time: the benchmark itself never holds it either. */
async function generate(path, rows) {
  const out = createWriteStream(path);
  const write = (text) => (out.write(text) ? undefined : new Promise((r) => out.once('drain', r)));
  await write('Charity ID,Amount,Currency,Employee email,Employee ID,Employee name,Department\n');
  let piece = '';
  for (let i = 0; i < rows; i++) {
    const recipient = `840-${String(100_000_000 + (i % 5_000)).padStart(9, '0')}`;
    const amount = `${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`;
    piece += `${recipient},${amount},USD,employee.${i}@acme-corporation.example,E-${String(i).padStart(8, '0')},Employee Number ${i},Finance and Operations\n`;
    if (piece.length > 1 << 20) {
      await write(piece);
      piece = '';
    }
  }
  await write(piece);
  await new Promise((resolve, reject) => out.end((e) => (e ? reject(e) : resolve())));
}

/** One CLI run in a child process; its peak resident memory is written by a probe as it exits. */
async function run(args) {
  const probe = join(dir, 'peak.cjs');
  const peakFile = join(dir, 'peak.json');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(peakFile)}, JSON.stringify(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const started = performance.now();
  const { code, outputBytes } = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', probe, join(root, 'out/cli/index.cjs'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let size = 0;
    child.stdout.on('data', (chunk) => (size += chunk.length));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, outputBytes: size }));
  });
  const seconds = (performance.now() - started) / 1000;
  const gb = JSON.parse(readFileSync(peakFile, 'utf8')) / 1024 ** 3;
  return { code, outputBytes, seconds, gb };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const file = join(dir, 'donations.csv');
  const generating = performance.now();
  await generate(file, rowCount);
  const mb = statSync(file).size / 1024 / 1024;
  console.log(
    `CSV of ${rowCount.toLocaleString('en')} rows, 7 columns: ${mb.toFixed(0)} MB (generated in ${((performance.now() - generating) / 1000).toFixed(0)} s)`,
  );
  const out = join(dir, 'bulk.json.gz');
  const commands = [
    ['validate --json', ['validate', file, '--json']],
    ['build', ['build', file, '--out', out, '--json']],
  ];
  for (const [label, args] of commands) {
    const results = [];
    for (let i = 0; i < runs; i++) {
      const r = await run(args);
      results.push(r);
      const extra =
        label === 'build'
          ? `${(statSync(out).size / 1024 / 1024).toFixed(0)} MB gzipped`
          : `${(r.outputBytes / 1024 / 1024).toFixed(1)} MB of JSON`;
      console.log(
        `  ${label} run ${i + 1}: ${r.seconds.toFixed(1)} s, peak ${r.gb.toFixed(2)} GB (target ≤ ${TARGET_GB} GB) ${r.gb <= TARGET_GB ? 'OK' : 'MISSED'}; exit ${r.code}, ${extra}`,
      );
      if (r.code !== 0 && r.code !== 1) process.exitCode = 1;
    }
    const gb = median(results.map((r) => r.gb));
    console.log(
      `  ${label}, median of ${runs}: ${median(results.map((r) => r.seconds)).toFixed(1)} s, peak ${gb.toFixed(2)} GB (target ≤ ${TARGET_GB} GB) ${gb <= TARGET_GB ? 'OK' : 'MISSED'}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
