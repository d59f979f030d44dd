import { randomUUID } from 'node:crypto';
import type { DonationAttributes } from '../../shared/donation';
import { gzipBulkFile } from '../../electron/services/upload/compress';
import { PgTeamDatabase } from '../../electron/services/team/teamDatabase';
import type { PgCluster } from '../support/pgCluster';
import { expect, openApp, seriousViolations } from './fixtures';
import { ALICE, aliceAndBobTeam } from './teamApps';

/*
 * The approver's review page is computed from the file, not from the preparer's declaration: alice,
 * with her own login and no app, declares 10 × USD 10.00 and stores a file holding USD 999,999.00 in
 * one of its rows. Bob's app reads the file: its totals beside the declaration, every row (searchable,
 * the outlier's warning on it), the difference in a sentence, and Approve off. At 1280×720.
 * `DESK_SCREENSHOTS=1` also writes docs/images/team-approver-review.png for the team admin's guide.
 */

let uploadId: string;

const gift = (amount: number, i: number): DonationAttributes => ({
  destination: { recipientId: `840-30000000${i}` },
  funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount, source: 'COMPANY' },
  donor: { fullName: `Donor ${i}`, receipted: false },
});

/** alice, with her own login and no app, submits the declaration and stores the file that belies it. */
async function aliceSubmitsTheFile(cluster: PgCluster): Promise<void> {
  const file = await gzipBulkFile([
    ...Array.from({ length: 9 }, (_, i) => gift(10_00, i)),
    gift(999_999_00, 9),
  ]);
  const alice = new PgTeamDatabase({
    url: cluster.url(ALICE.login, ALICE.password),
    computer: 'alice-laptop',
  });
  uploadId = randomUUID();
  try {
    await alice.submit({
      id: uploadId,
      workspaceName: 'November',
      environment: 'offline',
      environmentKey: 'offline',
      computer: 'alice-laptop',
      fileSha256: file.sha256,
      rows: 10,
      totals: [{ currencyCode: 'USD', amount: 100_00, count: 10 }],
      review: { month: '2026-11', largestRecipients: [], alreadyOut: 0, warnings: [] },
    });
    await alice.storeUploadFile(uploadId, 0, file.gz);
  } finally {
    await alice.close();
  }
}

const team = aliceAndBobTeam({ rule: "approval = 'always', sender = 'approver'", seed: aliceSubmitsTheFile });
const { test } = team;
test.use({ viewport: { width: 1280, height: 720 } });

test('the review shows what the file holds; a lying declaration turns Approve off and says why', async ({
  page,
  bobApp,
}) => {
  test.setTimeout(90_000);
  await openApp(page, bobApp, `approvals/${uploadId}`);

  const blocked = page.getByTestId('review-blocked');
  await expect(blocked).toHaveText(
    "The file holds 10 donations for USD 1,000,089.00; the preparer's app declared USD 100.00. Do not approve it: tell your desk admin.",
  );
  await expect(page.getByRole('button', { name: 'Approve and send…' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reject…' })).toBeEnabled();

  const usd = page.getByTestId('review-total').filter({ hasText: 'USD' });
  await expect(usd.getByTestId('review-total-file')).toHaveText('$1,000,089.00');
  await expect(usd.getByTestId('review-total-declared')).toContainText('$100.00 (10)');
  await expect(page.getByTestId('review-rows')).toHaveText('10 donations in the file');
  await expect(page.getByTestId('review-warnings')).toContainText(
    "1 row has an amount at least 10 times this file's usual amount.",
  );

  // Every row, searchable; the outlier carries the Prepare screen's warning.
  const rows = page.getByTestId('review-rows-list').getByTestId('review-row');
  await expect(rows).toHaveCount(10);
  await page.getByLabel('Search the rows').fill('999,999');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('840-300000009');
  await expect(rows.first()).toContainText("at least 10 times this file's usual USD amount");
  await page.getByLabel('Search the rows').fill('');
  await page.getByLabel('Only rows with a warning or already sent').check();
  await expect(rows).toHaveCount(1);

  // Usable at 1280×720: nothing wider than the window, the reason and the buttons reachable.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await blocked.scrollIntoViewIfNeeded();
  await expect(blocked).toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.DESK_SCREENSHOTS === '1') {
    // For the team admin's guide (docs/guide/team-admin.md), like the other guides' screenshots.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: 'docs/images/team-approver-review.png' });
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  // The refusal is in the trail: bob's computer wrote it, and copied it to the team's.
  await expect(async () => {
    const audit = await team.cluster.query<{ person: string }>(
      "SELECT person FROM desk.audit WHERE action = 'approval-blocked' AND upload_id = $1",
      [uploadId],
    );
    expect(audit.rows.map((r) => r.person)).toEqual(['bob']);
  }).toPass({ timeout: 20_000 });
});
