import { join } from 'node:path';
import type { RunningEmulator } from '../../emulator/server';
import { runCli } from '../../electron/cli/main';

export interface CliOutput {
  code: number;
  out: string;
  err: string;
}

/**
 * The CLI in this process against the emulator, on `dir`/data, with what it printed. Commands
 * register themselves when imported: the caller imports those it runs.
 */
export async function runCliInProcess(
  emu: RunningEmulator,
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliOutput> {
  let out = '';
  let err = '';
  const code = await runCli(
    ['--base-url', emu.apiBaseUrl, '--token-url', emu.tokenUrl, '--data-dir', join(dir, 'data'), ...args],
    {
      out: (t) => (out += `${t}\n`),
      err: (t) => (err += `${t}\n`),
      env: { DONATION_DESK_CLIENT_ID: emu.clientId, DONATION_DESK_CLIENT_SECRET: emu.clientSecret, ...env },
      root: dir,
      version: 'test',
    },
  );
  return { code, out, err };
}
