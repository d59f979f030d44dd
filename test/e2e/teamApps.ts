import { test as base } from '@playwright/test';
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
