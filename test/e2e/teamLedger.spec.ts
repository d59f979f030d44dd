import { mkdir } from 'node:fs/promises';
import { test as base, type Page } from '@playwright/test';
import { startEmulator, type RunningEmulator } from '../../emulator/server';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../support/teamCluster';
import { expect, openApp, seriousViolations, sendAndProcess } from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * One ledger for the team, in the browser: alice sends the month from her laptop's app, dave opens
 * Reconcile in his own app (another data folder, his own login to the team database, the same
 * service account) and sees her upload, its donations and its control totals, and the same month-end
 * report. Both apps work on the Sandbox environment at one emulator, as two computers reach one service.
 *
 * `DESK_SCREENSHOTS=1` also writes docs/images/team-reconcile-colleague.png for the team guide (docs/guide/team-admin.md).
 */

const SCREENSHOTS = process.env.DESK_SCREENSHOTS === '1';

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

test('dave’s Reconcile shows the upload alice sent from her computer, tied out, in the same report', async ({
  page,
  context,
  aliceApp,
  daveApp,
}) => {
  test.setTimeout(180_000);
  const info = (await (await fetch(`${emu.apiBaseUrl}/_emulator/info`)).json()) as {
    samples: { causesInGoodStanding: Array<{ id: string }>; causesNotInGoodStanding: string[] };
  };
  const [good1, good2] = info.samples.causesInGoodStanding;
  const bad = info.samples.causesNotInGoodStanding[0] as string;
  const csv = [
    'Charity ID,Gift amount,Currency,Employee ID',
    `${good1!.id},10.00,USD,E1`,
    `${good2!.id},25.50,USD,E2`,
    `${bad},20.00,USD,E3`,
  ].join('\n');

  // Alice, on her laptop.
  const alice = await context.newPage();
  await openOnSandbox(alice, aliceApp, 'prepare');
  await alice
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await alice.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(alice);
  // Ten hours of the service's life: every donation paid, or declined.
  await fetch(`${emu.apiBaseUrl}/_emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: 10 * 3600 }),
  });
  await alice.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await alice.getByRole('button', { name: 'Refresh from the service' }).click();
  await expect(alice.getByTestId('declined-donation')).toHaveCount(1, { timeout: 30_000 });

  // Dave, on his: he sent nothing, and Reconcile lists alice's upload after a refresh.
  await openOnSandbox(page, daveApp, 'reconcile');
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
  await expect(page.getByTestId('donation-bulk')).toHaveCount(3, { timeout: 30_000 });
  await expect(page.getByTestId('donation-bulk').first()).toHaveText('november');
  await expect(page.getByText(/sent by alice/).first()).toBeVisible();
  await expect(page.getByText('on alice’s computer').first()).toBeVisible();
  await expect(page.getByTestId('declined-donation')).toHaveCount(1);
  await expect(page.getByTestId('declined-donation').getByRole('button', { name: 'Correct' })).toBeEnabled();
  expect(await seriousViolations(page)).toEqual([]);
  if (SCREENSHOTS) {
    await mkdir('docs/images', { recursive: true });
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.screenshot({ path: 'docs/images/team-reconcile-colleague.png', fullPage: false });
  }

  // The same month-end report on both computers.
  const month = new Date().toISOString().slice(0, 7);
  const reportOf = async (app: BridgeProcess) => {
    const res = await fetch(`${app.origin}/api/call/donations.report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-secret': app.secret },
      body: JSON.stringify({ month, refresh: false }),
    });
    return ((await res.json()) as { value: { lines: unknown[]; reconciled: boolean } }).value;
  };
  const [mine, theirs] = [await reportOf(aliceApp), await reportOf(daveApp)];
  expect(theirs.lines).toEqual(mine.lines);
  expect(theirs.reconciled).toBe(true);
});
