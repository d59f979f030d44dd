import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { runCli } from '../../../electron/cli/main';
import '../../../electron/cli/commands/search';
import '../../../electron/cli/commands/locations';

export interface CliHarness {
  emu: RunningEmulator;
  dir: string;
  cli(args: string[]): Promise<{ code: number; out: string; err: string }>;
  close(): Promise<void>;
}

/** The CLI against a test emulator given as a custom environment, with its own data folder. */
export async function startCliHarness(): Promise<CliHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'dd-cli-loc-'));
  const emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 0, quiet: true });
  return {
    emu,
    dir,
    cli: async (args) => {
      let out = '';
      let err = '';
      const code = await runCli(
        ['--base-url', emu.apiBaseUrl, '--token-url', emu.tokenUrl, '--data-dir', join(dir, 'data'), ...args],
        {
          out: (t) => (out += `${t}\n`),
          err: (t) => (err += `${t}\n`),
          env: {
            DONATION_DESK_CLIENT_ID: emu.clientId,
            DONATION_DESK_CLIENT_SECRET: emu.clientSecret,
            LANG: 'de_DE.UTF-8',
          },
          root: dir,
          version: 'test',
        },
      );
      return { code, out, err };
    },
    close: async () => {
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
