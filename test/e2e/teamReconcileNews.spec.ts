import { test as base, type Page } from '@playwright/test';
import { startEmulator, type RunningEmulator } from '../../emulator/server';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../support/teamCluster';
import { expect, openApp, sendAndProcess } from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * Reconcile hears the team's news: dave has Reconcile open in his app when alice sends an upload
 * from hers (two data folders, one team database, one service). Without dave pressing anything, his
 * page lists her upload's donations, told by the team database (LISTEN/NOTIFY): his own background
 * refresh and approvals check are an hour apart here, so nothing else could have brought them.
 */

let cluster: TeamCluster;
let emu: RunningEmulator;

const test = base.extend<{ aliceApp: BridgeProcess; daveApp: BridgeProcess }>({
  // eslint-disable-next-line no-empty-pattern
  aliceApp: async ({}, use) => {
    const app = await startBridgeProcess(await newDataDir(), envOf('alice'));
    await use(app);
    await app.stop();
  },
  // eslint-disable-next-line no-empty-pattern
  daveApp: async ({}, use) => {
    const app = await startBridgeProcess(await newDataDir(), envOf('dave'));
    await use(app);
    await app.stop();
  },
});

function envOf(who: TeamLogin): Record<string, string> {
  return {
    DONATION_DESK_SANDBOX_BASE_URL: emu.apiBaseUrl,
    DONATION_DESK_SANDBOX_TOKEN_URL: emu.tokenUrl,
    DONATION_DESK_CLIENT_ID: emu.clientId,
    DONATION_DESK_CLIENT_SECRET: emu.clientSecret,
    DONATION_DESK_POLL_MIN_MS: '500',
    DONATION_DESK_POLL_MAX_MS: '2000',
    DONATION_DESK_RECONCILE_POLL_MS: '3600000',
    DONATION_DESK_APPROVALS_POLL_MS: '3600000',
    DONATION_DESK_DATABASE_URL: cluster.urlOf(who),
  };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startTeamCluster();
  // Ten minutes of the service's life per second: an upload is processed in a few seconds.
  emu = await startEmulator({ port: 0, uploadPort: 0, timeScale: 600, quiet: true });
  // Uploads go out at once: this is not about approvals.
  await cluster.query("UPDATE desk.team_rule SET approval = 'never'");
});

test.afterAll(async () => {
  await emu?.close();
  await cluster?.stop();
});

/** Opens the app on the Sandbox environment (the shared service) in `area`. */
async function openOnSandbox(page: Page, app: BridgeProcess, area: string): Promise<void> {
  await openApp(page, app, area);
  const saved = await fetch(`${app.origin}/api/call/settings.save`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': app.secret },
    body: JSON.stringify({ environment: 'sandbox' }),
  });
  expect(saved.ok).toBe(true);
  await page.reload();
}

test('dave’s open Reconcile lists the upload alice just sent, without a press', async ({
  page,
  context,
  aliceApp,
  daveApp,
}) => {
  test.setTimeout(180_000);
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    samples: { causesInGoodStanding: Array<{ id: string }> };
  };
  const [good1, good2] = info.samples.causesInGoodStanding;
  const csv = [
    'Charity ID,Gift amount,Currency,Employee ID',
    `${good1!.id},10.00,USD,E1`,
    `${good2!.id},25.50,USD,E2`,
  ].join('\n');

  // Dave, on his laptop, has Reconcile open: nothing sent yet.
  await openOnSandbox(page, daveApp, 'reconcile');
  await expect(page.getByRole('heading', { name: 'Reconcile' })).toBeVisible();
  await expect(page.getByTestId('donation-bulk')).toHaveCount(0);

  // Alice, on hers, sends the month.
  const alice = await context.newPage();
  await openOnSandbox(alice, aliceApp, 'prepare');
  await alice
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await alice.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(alice);

  // Dave's page shows her donations, and whose they are, with no button pressed.
  await expect(page.getByTestId('donation-bulk')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId('donation-bulk').first()).toHaveText('november');
  await expect(page.getByText('on alice’s computer').first()).toBeVisible();
});
