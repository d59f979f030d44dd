// What the benchmarks that time the built command line share: it runs in a fresh process with a
// hook that prints, as it exits, its peak resident memory and its own CPU time (the CLI prints
// neither), and each run returns those with its wall time and how it ended.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Writes the exit hook into `work` and returns run(options): `donation-desk --data-dir D --env E
 * ...args` (after `npm run build`) with `env`. A run whose exit code is not in `okExits` carries the
 * first line of its standard error as `failure`.
 */
export function cliRunner(work) {
  const peak = join(work, 'peak.cjs');
  writeFileSync(
    peak,
    "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeSync(2, `\\nPEAK_RSS_MB ${Math.round(u.maxRSS / 1024)} CPU_S ${((u.userCPUTime + u.systemCPUTime) / 1e6).toFixed(1)}\\n`); });",
  );
  return ({ dataDir, environment, args, env, okExits = [0, 1], keepStdout = true, maxBuffer = 1 << 30 }) => {
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [
        '--require',
        peak,
        join(root, 'out', 'cli', 'index.cjs'),
        '--data-dir',
        dataDir,
        '--env',
        environment,
        ...args,
      ],
      {
        encoding: 'utf8',
        env,
        maxBuffer,
        timeout: 30 * 60_000,
        stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'],
      },
    );
    const seconds = (performance.now() - started) / 1000;
    const stderr = result.stderr ?? '';
    const failure = okExits.includes(result.status)
      ? null
      : (stderr.split('\n').find((l) => l.trim()) ?? `exit ${result.status}`);
    return {
      seconds,
      peakMb: Number(/PEAK_RSS_MB (\d+)/.exec(stderr)?.[1] ?? NaN),
      cpu: Number(/CPU_S ([\d.]+)/.exec(stderr)?.[1] ?? NaN),
      exit: result.status,
      failure,
      stdout: result.stdout ?? '',
    };
  };
}
