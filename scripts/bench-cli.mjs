// The CLI on a large file: `donation-desk validate FILE --json` on a generated 500,000-row,
// 14-column xlsx, its time and its peak memory (target: at most 1 GB), measured in a child process
// so the figure is the CLI's own.
// Usage: npm run build && node scripts/bench-cli.mjs [--rows 500000]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './bench-import.mjs';

const rowsArg = process.argv.indexOf('--rows');
const rowCount = rowsArg === -1 ? 500_000 : Number(process.argv[rowsArg + 1]);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bench-cli-'));

try {
  const file = join(dir, 'donations.xlsx');
  const bytes = generate(rowCount);
  writeFileSync(file, bytes);
  // Loaded into the CLI's process: writes its peak resident memory as it exits.
  const probe = join(dir, 'peak.cjs');
  const peakFile = join(dir, 'peak.json');
  writeFileSync(
    probe,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(peakFile)}, JSON.stringify(process.resourceUsage().maxRSS * 1024)));\n`,
  );
  const started = performance.now();
  const { code, outputBytes } = await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--require', probe, join(root, 'out/cli/index.cjs'), 'validate', file, '--json'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let size = 0;
    child.stdout.on('data', (chunk) => (size += chunk.length));
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ code: exitCode, outputBytes: size }));
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = JSON.parse(readFileSync(peakFile, 'utf8'));
  const gb = peak / 1024 ** 3;
  console.log(
    `CLI validate --json, ${rowCount.toLocaleString('en')}-row, 14-column xlsx (${(bytes.length / 1024 / 1024).toFixed(1)} MB)`,
  );
  console.log(
    `  exit code ${code} (0 all valid, 1 some invalid), ${(outputBytes / 1024 / 1024).toFixed(1)} MB of JSON`,
  );
  console.log(`  time: ${seconds.toFixed(1)} s`);
  console.log(`  peak memory: ${gb.toFixed(2)} GB (target ≤ 1 GB) ${gb <= 1 ? 'OK' : 'MISSED'}`);
  if (code !== 0 && code !== 1) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
