import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { TeamRule } from '../../../electron/services/team/teamTypes';
import type { PgCluster } from '../../support/pgCluster';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import { buildCli } from '../cliProcess';

/*
 * The set-up the command-line team tests share: a scratch folder holding each computer's folder (one
 * per person, as on their own laptop), the giving-service emulator on a loopback port, a throwaway
 * team database with a login per part (support/teamCluster.ts), and optionally the CLI built as a
 * real process. close() ends all of it, the data folders' databases included.
 */

export interface TeamComputers<C extends PgCluster = TeamCluster> {
  /** The scratch folder: the computers' folders, the sheets and the built CLI are in it. */
  dir: string;
  emu: RunningEmulator;
  team: C;
  /** Causes in good standing at the emulator. */
  good: string[];
  /** The CLI built as a process, with `cli: true` (else empty). */
  cli: string;
  /** One computer's folder under `dir`, by name (its data folder, or the one in its `data`). */
  folder(name: string): string;
  /** A CSV sheet in `dir` with the columns Charity ID, Amount, Currency. */
  sheet(name: string, rows: Array<[string, string, string]>): Promise<string>;
  close(): Promise<void>;
}

interface Options {
  /** The scratch folder's name starts with this. */
  prefix: string;
  /** Also build the CLI as a process (tests that run it as one, as a person types it). */
  cli?: boolean;
  /** The emulator's virtual seconds per real second (default 200: a bulk is processed in seconds). */
  timeScale?: number;
}

/** With the team database set up as `db init-team` does, and the rule carol (the desk admin) sets. */
export function startTeamComputers(
  options: Options & { rule?: TeamRule; cluster?: undefined },
): Promise<TeamComputers>;
/** With the cluster the test starts and sets up itself. */
export function startTeamComputers<C extends PgCluster>(
  options: Options & { cluster: () => Promise<C> },
): Promise<TeamComputers<C>>;
export async function startTeamComputers(
  options: Options & { rule?: TeamRule; cluster?: () => Promise<PgCluster> },
): Promise<TeamComputers<PgCluster>> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  const [cli, emu, team] = await Promise.all([
    options.cli ? buildCli(dir) : Promise.resolve(''),
    startEmulator({ port: 0, uploadPort: 0, timeScale: options.timeScale ?? 200, quiet: true }),
    (options.cluster ?? startTeamCluster)(),
  ]);
  if (options.rule) {
    const carol = new PgTeamDatabase({ url: (team as TeamCluster).urlOf('carol') });
    try {
      await carol.setRule(options.rule);
    } finally {
      await carol.close();
    }
  }
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    samples: { causesInGoodStanding: Array<{ id: string }> };
  };
  const folders = new Set<string>();
  return {
    dir,
    emu,
    team,
    good: info.samples.causesInGoodStanding.map((c) => c.id),
    cli,
    folder(name) {
      const path = join(dir, name);
      folders.add(path);
      return path;
    },
    async sheet(name, rows) {
      const file = join(dir, name);
      await writeFile(file, ['Charity ID,Amount,Currency', ...rows.map((r) => r.join(',')), ''].join('\n'));
      return file;
    },
    async close() {
      for (const path of folders) {
        closeDatabase(path);
        closeDatabase(join(path, 'data'));
      }
      await emu.close();
      await team.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
