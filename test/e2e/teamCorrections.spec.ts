import { test as base, type Page } from '@playwright/test';
import { startTeamCluster, type TeamCluster } from '../support/teamCluster';
import { PgTeamDatabase } from '../../electron/services/team/teamDatabase';
import {
  expect,
  openApp,
  reconcileLater,
  sandboxSamples,
  seriousViolations,
  sendAndProcess,
} from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * Team mode in Reconcile: alice's app shows a declined donation that dave, on his own laptop, is
 * correcting (then has corrected), from the team database, and keeps her from correcting it too.
 * Dave's side is his own connection to the team database, as his app claims a correction.
 */

let cluster: TeamCluster;

const test = base.extend<{ aliceApp: BridgeProcess }>({
  // eslint-disable-next-line no-empty-pattern
  aliceApp: async ({}, use) => {
    const app = await startBridgeProcess(await newDataDir(), {
      DONATION_DESK_OFFLINE_TIME_SCALE: '600',
      DONATION_DESK_POLL_MIN_MS: '500',
      DONATION_DESK_POLL_MAX_MS: '2000',
      DONATION_DESK_DATABASE_URL: cluster.urlOf('alice'),
    });
    await use(app);
    await app.stop();
  },
});

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startTeamCluster();
  // Uploads go out at once: this is not about approvals.
  await cluster.query("UPDATE desk.team_rule SET approval = 'never'");
});

test.afterAll(async () => {
  await cluster?.stop();
});

test('a declined donation a colleague is correcting shows who, and its Correct button is off', async ({
  page,
  aliceApp,
}) => {
  const samples = await sandboxSamples(aliceApp);
  const good = samples.causesInGoodStanding[0] as { id: string; name: string };
  const bad = samples.causesNotInGoodStanding[0] as string;
  const csv = [
    'Charity ID,Gift amount,Currency,Employee ID',
    `${good.id},10.00,USD,E1`,
    `${bad},20.00,USD,E2`,
  ].join('\n');
  await openApp(page, aliceApp);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(page);
  await reconcileLater(page, aliceApp);
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1, { timeout: 30_000 });
  await expect(declined.getByRole('button', { name: 'Correct' })).toBeEnabled();
  const donationId = await declinedId(page);

  // Dave's app claims the correction on his laptop (the key is the one alice's upload used).
  const { rows } = await cluster.query<{ environment_key: string }>(
    'SELECT DISTINCT environment_key FROM desk.sent_row',
  );
  const environmentKey = rows[0]!.environment_key;
  const dave = new PgTeamDatabase({ url: cluster.urlOf('dave'), computer: 'dave-laptop' });
  try {
    const id = donationId;
    expect((await dave.claimCorrection(environmentKey, id, { how: 'single' })).granted).toBe(true);

    await page.reload();
    await expect(declined.getByTestId('correction-elsewhere')).toHaveText(
      'Being corrected by dave (dave-laptop)',
    );
    await expect(declined.getByRole('button', { name: 'Correct' })).toBeDisabled();
    expect(await seriousViolations(page)).toEqual([]);

    await dave.finishCorrection(environmentKey, id, 'don-by-dave');
    await page.reload();
    await expect(declined.getByTestId('correction-elsewhere')).toHaveText('Replaced by dave (don-by-dave)');
    await expect(declined.getByRole('button', { name: 'Correct' })).toBeDisabled();
  } finally {
    await dave.close();
  }
});

/** The one declined donation's id, asked through the bridge with the page's own secret. */
async function declinedId(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
    const res = await fetch('/api/call/donations.list', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
      body: JSON.stringify({ cached: true }),
    });
    const answer = (await res.json()) as { value: { donations: Array<{ id: string; state: string }> } };
    return answer.value.donations.find((d) => d.state === 'DECLINED')!.id;
  });
}
