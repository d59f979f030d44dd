import { test as base } from '@playwright/test';
import pg from 'pg';
import { initTeamDatabase } from '../../electron/services/team/teamInit';
import { startPgCluster, type PgCluster } from '../support/pgCluster';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * Team mode apps for the browser tests: each person's own app (its own data folder, its own login to
 * the team database), with quick polls and a quick Offline sandbox, so an approved upload goes out and
 * is processed in seconds.
 */

/** One person's app on the team database at `url` (none: working alone). */
export async function startTeamApp(url: string | null): Promise<BridgeProcess> {
  return startBridgeProcess(await newDataDir(), {
    DONATION_DESK_APPROVALS_POLL_MS: '1000',
    DONATION_DESK_OFFLINE_TIME_SCALE: '600',
    DONATION_DESK_POLL_MIN_MS: '500',
    DONATION_DESK_POLL_MAX_MS: '2000',
    ...(url ? { DONATION_DESK_DATABASE_URL: url } : {}),
  });
}

/** The test with alice's and bob's apps as fixtures; `urlOf` gives each one's address once the cluster runs. */
export function withAliceAndBob(urlOf: (who: 'alice' | 'bob') => string) {
  return base.extend<{ aliceApp: BridgeProcess; bobApp: BridgeProcess }>({
    // eslint-disable-next-line no-empty-pattern
    aliceApp: async ({}, use) => {
      const app = await startTeamApp(urlOf('alice'));
      await use(app);
      await app.stop();
    },
    // eslint-disable-next-line no-empty-pattern
    bobApp: async ({}, use) => {
      const app = await startTeamApp(urlOf('bob'));
      await use(app);
      await app.stop();
    },
  });
}

export const ALICE = { login: 'alice', password: 'alice-pw-1' };
export const BOB = { login: 'bob', password: 'bob-pw-2' };

export interface AliceAndBobTeam {
  /** The test with alice's and bob's apps as fixtures (see withAliceAndBob). */
  test: ReturnType<typeof withAliceAndBob>;
  /** The team's throwaway cluster, from beforeAll on. */
  readonly cluster: PgCluster;
}

/**
 * One spec file's team: a throwaway cluster set up with `init-team`, alice (preparer) and bob
 * (approver) with their own logins, and their apps as fixtures. Started in beforeAll: the team's
 * rule set to `rule` when given (the SET list of an UPDATE of desk.team_rule), then `seed` run;
 * stopped in afterAll.
 */
export function aliceAndBobTeam(
  options: { rule?: string; seed?: (cluster: PgCluster) => Promise<void> } = {},
): AliceAndBobTeam {
  let cluster: PgCluster | undefined;
  const running = (): PgCluster => {
    if (!cluster) throw new Error('The team database is started in beforeAll.');
    return cluster;
  };
  const test = withAliceAndBob((who) => {
    const { login, password } = who === 'alice' ? ALICE : BOB;
    return running().url(login, password);
  });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    try {
      await initTeamDatabase(admin);
      if (options.rule) await admin.query(`UPDATE desk.team_rule SET ${options.rule}`);
    } finally {
      await admin.end();
    }
    await cluster.createLogin(ALICE.login, ALICE.password, ['desk_preparer']);
    await cluster.createLogin(BOB.login, BOB.password, ['desk_approver']);
    await options.seed?.(cluster);
  });
  test.afterAll(async () => {
    await cluster?.stop();
  });
  return {
    test,
    get cluster() {
      return running();
    },
  };
}
