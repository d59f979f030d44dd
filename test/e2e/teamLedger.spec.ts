import { mkdir } from 'node:fs/promises';
import { expect, seriousViolations, sendAndProcess } from './fixtures';
import { oneServiceTeam } from './oneServiceTeam';
import type { BridgeProcess } from './bridgeProcess';

/*
 * One ledger for the team, in the browser: alice sends the month from her laptop's app, dave opens
 * Reconcile in his own app (another data folder, his own login to the team database, the same
 * service account) and sees her upload, its donations and its control totals, and the same month-end
 * report. Both apps work on the Sandbox environment at one emulator, as two computers reach one service.
 *
 * `DESK_SCREENSHOTS=1` also writes docs/images/team-reconcile-colleague.png for the team guide (docs/guide/team-admin.md).
 */

const SCREENSHOTS = process.env.DESK_SCREENSHOTS === '1';

const team = oneServiceTeam();
const { test, openOnSandbox } = team;

test('dave’s Reconcile shows the upload alice sent from her computer, tied out, in the same report', async ({
  page,
  context,
  aliceApp,
  daveApp,
}) => {
  test.setTimeout(180_000);
  const info = (await (await fetch(`${team.emu.apiBaseUrl}/_emulator/info`)).json()) as {
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
  await fetch(`${team.emu.apiBaseUrl}/_emulator/clock`, {
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
