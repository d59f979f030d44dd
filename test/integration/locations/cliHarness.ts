import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { runCliInProcess } from '../cliInProcess';
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
    cli: (args) => runCliInProcess(emu, dir, args, { LANG: 'de_DE.UTF-8' }),
    close: async () => {
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
