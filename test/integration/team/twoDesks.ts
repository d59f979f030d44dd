import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import { openDesk, startSandbox, type Desk, type Sandbox } from '../reconcile/harness';

/**
 * Two colleagues' laptops: alice's and dave's desks, each with a data folder of its own and its own
 * login to one team database, on one service account (the emulator). carol, the desk admin, has set
 * the rule so uploads go out at once (these tests are not about approvals).
 */
export interface TwoDesks {
  s: Sandbox;
  team: TeamCluster;
  /** The desk admin's connection (carol). */
  carol: PgTeamDatabase;
  alice: Desk;
  dave: Desk;
  daveDir: string;
  /** Opens dave's desk again on his data folder (after a close), with this team database address. */
  reopenDave(url?: string): Promise<Desk>;
  close(): Promise<void>;
}

/**
 * `custom`: both desks on a custom environment at the emulator's addresses, as two real computers
 * reach one service (the Offline sandbox is each computer's own, so nothing of its ledger is shared).
 */
export async function startTwoDesks(options: { custom?: boolean } = {}): Promise<TwoDesks> {
  const [s, team] = await Promise.all([startSandbox(), startTeamCluster()]);
  const carol = new PgTeamDatabase({ url: team.urlOf('carol') });
  await carol.setRule({ approval: 'never', thresholds: {} });
  const daveDir = await mkdtemp(join(tmpdir(), 'dd-dave-'));
  const custom = options.custom ? { custom: true } : {};
  const openDave = (url = team.urlOf('dave')) =>
    openDesk(s, { ...custom, dataDir: daveDir, env: { DONATION_DESK_DATABASE_URL: url } });
  const desks: TwoDesks = {
    s,
    team,
    carol,
    alice: await openDesk(s, { ...custom, env: { DONATION_DESK_DATABASE_URL: team.urlOf('alice') } }),
    dave: await openDave(),
    daveDir,
    async reopenDave(url) {
      desks.dave = await openDave(url);
      return desks.dave;
    },
    async close() {
      await desks.alice.runtime.close();
      await desks.dave.runtime.close();
      await carol.close();
      await team.stop();
      await s.close();
      await rm(daveDir, { recursive: true, force: true });
    },
  };
  return desks;
}
