import { expect, sendAndProcess } from './fixtures';
import { oneServiceTeam } from './oneServiceTeam';

/*
 * Reconcile hears the team's news: dave has Reconcile open in his app when alice sends an upload
 * from hers (two data folders, one team database, one service). Without dave pressing anything, his
 * page lists her upload's donations, told by the team database (LISTEN/NOTIFY): his own background
 * refresh and approvals check are an hour apart here, so nothing else could have brought them.
 */

const team = oneServiceTeam({
  DONATION_DESK_RECONCILE_POLL_MS: '3600000',
  DONATION_DESK_APPROVALS_POLL_MS: '3600000',
});
const { test, openOnSandbox } = team;

test('dave’s open Reconcile lists the upload alice just sent, without a press', async ({
  page,
  context,
  aliceApp,
  daveApp,
}) => {
  test.setTimeout(180_000);
  const info = (await (await fetch(`${team.emu.apiBaseUrl}/_emulator/info`)).json()) as {
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
