import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { rawText } from '../../scripts/esbuildRawText.mjs';
import type { RunningEmulator } from '../../emulator/server';

/*
 * The CLI as a real process, for tests that kill it, race two of it, or read what it left on disk.
 */

/**
 * Builds the CLI the way scripts/build-node.mjs does, into `dir`/out/cli, with the emulator's bundle
 * beside it (out/emulator, which the CLI runs as the Offline sandbox); answers the CLI's path.
 */
export async function buildCli(dir: string): Promise<string> {
  const cli = join(dir, 'out', 'cli', 'index.cjs');
  await Promise.all(
    [
      { entry: 'electron/cli/index.ts', outfile: cli },
      { entry: 'emulator/index.ts', outfile: join(dir, 'out', 'emulator', 'index.cjs') },
    ].map(({ entry, outfile }) =>
      build({
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        external: ['electron', '@photostructure/sqlite', 'pg-native'],
        logLevel: 'silent',
        plugins: [rawText],
        define: { 'import.meta.url': 'importMetaUrl' },
        banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
      }),
    ),
  );
  return cli;
}

export interface CliRun {
  code: number | null;
  /** Ended by the SIGKILL asked for (not by finishing before it came). */
  killed: boolean;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI against the emulator on `dataDir`; SIGKILL after `killAfterMs` when given. */
export function runCliProcess(
  cli: string,
  emu: RunningEmulator,
  args: string[],
  dataDir: string,
  options: { killAfterMs?: number; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliRun> {
  const { killAfterMs, timeoutMs = 90_000 } = options;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cli, '--base-url', emu.apiBaseUrl, '--token-url', emu.tokenUrl, '--data-dir', dataDir, ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          // The SQLite binding is not bundled (it loads its native binary from beside its files).
          NODE_PATH: join(process.cwd(), 'node_modules'),
          DONATION_DESK_CLIENT_ID: emu.clientId,
          DONATION_DESK_CLIENT_SECRET: emu.clientSecret,
          DONATION_DESK_POLL_MIN_MS: '100',
          DONATION_DESK_POLL_MAX_MS: '400',
          DONATION_DESK_UPLOAD_GRACE_MS: '1000',
          ...options.env,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const killer =
      killAfterMs !== undefined
        ? setTimeout(() => {
            killed = child.kill('SIGKILL');
          }, killAfterMs)
        : undefined;
    const guard = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(killer);
      clearTimeout(guard);
      resolve({ code, killed: killed && code === null, stdout, stderr });
    });
  });
}
