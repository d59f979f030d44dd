import { test as base, type Page } from '@playwright/test';
import { startEmulator, type RunningEmulator } from '../../emulator/server';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../support/teamCluster';
import { expect, openApp } from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * Two computers of one team at one service, for the browser tests: alice's and dave's apps (each its
 * own data folder and its own login to the team database) on the Sandbox environment pointed at one
 * emulator, as two computers reach one service. The team's rule sends uploads at once (these tests
 * are not about approvals), and the emulator runs ten minutes of the service's life per second.
 */

export interface OneServiceTeam {
  /** The test with alice's and dave's apps as fixtures. */
  test: ReturnType<typeof base.extend<{ aliceApp: BridgeProcess; daveApp: BridgeProcess }>>;
  /** The shared emulator, from beforeAll on. */
  readonly emu: RunningEmulator;
  /** Opens the app on the Sandbox environment (the shared service) in `area`. */
  openOnSandbox(page: Page, app: BridgeProcess, area: string): Promise<void>;
}

/** Registers the spec file's beforeAll/afterAll; `env` is added to each app's environment. */
export function oneServiceTeam(env: Record<string, string> = {}): OneServiceTeam {
  let cluster: TeamCluster;
  let emu: RunningEmulator;
  const envOf = (who: TeamLogin): Record<string, string> => ({
    DONATION_DESK_SANDBOX_BASE_URL: emu.apiBaseUrl,
    DONATION_DESK_SANDBOX_TOKEN_URL: emu.tokenUrl,
    DONATION_DESK_CLIENT_ID: emu.clientId,
    DONATION_DESK_CLIENT_SECRET: emu.clientSecret,
    DONATION_DESK_POLL_MIN_MS: '500',
    DONATION_DESK_POLL_MAX_MS: '2000',
    ...env,
    DONATION_DESK_DATABASE_URL: cluster.urlOf(who),
  });
  const appOf =
    (who: TeamLogin) =>
    // eslint-disable-next-line no-empty-pattern
    async ({}, use: (app: BridgeProcess) => Promise<void>) => {
      const app = await startBridgeProcess(await newDataDir(), envOf(who));
      await use(app);
      await app.stop();
    };
  const test = base.extend<{ aliceApp: BridgeProcess; daveApp: BridgeProcess }>({
    aliceApp: appOf('alice'),
    daveApp: appOf('dave'),
  });

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startTeamCluster();
    emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 600, quiet: true });
    await cluster.query("UPDATE desk.team_rule SET approval = 'never'");
  });
  test.afterAll(async () => {
    await emu?.close();
    await cluster?.stop();
  });

  return {
    test,
    get emu() {
      return emu;
    },
    async openOnSandbox(page, app, area) {
      await openApp(page, app, area);
      const saved = await fetch(`${app.origin}/api/call/settings.save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-desk-secret': app.secret },
        body: JSON.stringify({ environment: 'sandbox' }),
      });
      expect(saved.ok).toBe(true);
      await page.reload();
    },
  };
}
