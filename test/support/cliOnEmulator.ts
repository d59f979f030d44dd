import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server';
import { closeDatabase } from '../../electron/services/db/deskDatabase';
import { runCliInProcess, type CliOutput } from '../integration/cliInProcess';

/*
 * For the CLI's tests: a quiet test emulator with its causes in good standing (enough for tests that
 * run the CLI as a process), and cliOnEmulator, the CLI in this process against an emulator of its
 * own on a data folder of its own (`dir`/data in a temp folder), for one test file: started in
 * beforeAll, stopped and removed in afterAll. Commands register themselves when imported: the test
 * file imports those it runs.
 */

/** Quick polls, so a CLI that waits for the service follows it in a fraction of a second. */
export const QUICK_POLLS = { DONATION_DESK_POLL_MIN_MS: '100', DONATION_DESK_POLL_MAX_MS: '300' };

export interface CliOnEmulatorOptions {
  /** The start of the temp folder's name. */
  prefix: string;
  /** The emulator's time scale (0: its clock moves only when the test moves it). */
  timeScale: number;
  /** Environment variables for every run of the CLI. */
  env?: Record<string, string>;
}

export interface CliOnEmulator {
  readonly emu: RunningEmulator;
  /** The temp folder: the CLI's data folder is `dir`/data, and test files can be written here. */
  readonly dir: string;
  /** The emulator's causes in good standing. */
  readonly recipients: string[];
  cli(args: string[]): Promise<CliOutput>;
}

/** A quiet test emulator on free ports, and its causes in good standing. */
export async function startEmulatorWithCauses(
  timeScale: number,
): Promise<{ emu: RunningEmulator; recipients: string[] }> {
  const emu = await startEmulator({ port: 0, uploadPort: 0, timeScale, quiet: true });
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    samples: { causesInGoodStanding: Array<{ id: string }> };
  };
  return { emu, recipients: info.samples.causesInGoodStanding.map((c) => c.id) };
}

type StartedCli = CliOnEmulator & { close(): Promise<void> };

async function startCliOnEmulator(options: CliOnEmulatorOptions): Promise<StartedCli> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  const { emu, recipients } = await startEmulatorWithCauses(options.timeScale);
  return {
    emu,
    dir,
    recipients,
    cli: (args) => runCliInProcess(emu, dir, args, options.env),
    close: async () => {
      closeDatabase(join(dir, 'data'));
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The CLI and its emulator for the test file that calls this (at its top level). */
export function cliOnEmulator(options: CliOnEmulatorOptions): CliOnEmulator {
  let started: StartedCli | undefined;
  const running = () => {
    if (!started) throw new Error('The CLI’s emulator is started in beforeAll.');
    return started;
  };
  beforeAll(async () => {
    started = await startCliOnEmulator(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get emu() {
      return running().emu;
    },
    get dir() {
      return running().dir;
    },
    get recipients() {
      return running().recipients;
    },
    cli: (args) => running().cli(args),
  };
}
