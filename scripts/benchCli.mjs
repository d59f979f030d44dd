// What the benchmarks that time the built command line share: it runs in a fresh process with a
// hook that prints, as it exits, its peak resident memory and its own CPU time (the CLI prints
// neither), and each run returns those with its wall time and how it ended. The processes it starts
// (the Offline sandbox, the spreadsheet reader) carry the same hook through NODE_OPTIONS and write
// their own figures to a log: a run also returns the Offline sandbox's peak, apart from the CLI's.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
    [
      'const line = () => { const u = process.resourceUsage(); return `PEAK_RSS_MB ${Math.round(u.maxRSS / 1024)} CPU_S ${((u.userCPUTime + u.systemCPUTime) / 1e6).toFixed(1)}`; };',
      'const log = process.env.DESK_BENCH_PEAK_LOG;',
      "const main = /[\\\\/]cli[\\\\/]index\\.cjs$/.test(process.argv[1] || '');",
      "if (main || !log) process.on('exit', () => require('node:fs').writeSync(2, `\\n${line()}\\n`));",
      "else process.on('exit', () => require('node:fs').appendFileSync(log, `${process.argv[1] || '-e'} ${line()}\\n`));",
    ].join('\n'),
  );
  let runNumber = 0;
  return ({ dataDir, environment, args, env, okExits = [0, 1], keepStdout = true, maxBuffer = 1 << 30 }) => {
    const started = performance.now();
    const childLog = join(work, `peak-children-${++runNumber}.log`);
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
        // The CLI reports on stderr; the processes it starts inherit the hook and log apart.
        env: { ...env, NODE_OPTIONS: `--require ${peak}`, DESK_BENCH_PEAK_LOG: childLog },
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
      sandboxPeakMb: sandboxPeakOf(childLog),
      exit: result.status,
      failure,
      stdout: result.stdout ?? '',
    };
  };
}

/** The Offline sandbox's peak in a run (its process logs it as it ends), or null when none ran. */
function sandboxPeakOf(log) {
  if (!existsSync(log)) return null;
  const peaks = readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => /[\\/]emulator[\\/]index\.cjs /.test(line))
    .map((line) => Number(/PEAK_RSS_MB (\d+)/.exec(line)?.[1] ?? NaN));
  return peaks.length ? Math.max(...peaks) : null;
}
