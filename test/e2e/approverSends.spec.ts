import type { Page } from '@playwright/test';
import { expect, openApp, openFixedSample, seriousViolations, titlesSeen, watchTitle } from './fixtures';
import { aliceAndBobTeam } from './teamApps';

/*
 * "The approver sends" through the screens: the team's rule says the approver's computer sends an
 * approved upload. alice uploads in her app (it waits, its file stored with the submission); bob, in
 * his own app, reads the rule on Approvals, presses "Approve and send", and his app sends it and
 * follows it to PROCESSED; alice's app never sends it and says bob did. Each app runs its own Offline
 * sandbox here, so bob's send goes to his (the team's shared ledger leaves sandboxes out).
 */

const team = aliceAndBobTeam({ rule: "approval = 'always', sender = 'approver'" });
const { test } = team;

const nav = (page: Page) => page.getByRole('navigation', { name: 'Areas' });

test('bob approves and sends alice’s upload from his app; hers never sends it and says who did', async ({
  page,
  browser,
  aliceApp,
  bobApp,
}) => {
  test.setTimeout(150_000);
  await openApp(page, aliceApp);
  await openFixedSample(page);
  await page.getByRole('button', { name: 'Upload…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit for approval' }).click();
  const upload = page.getByRole('region', { name: /Upload of/ }).first();
  await expect(upload.getByTestId('upload-state')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await expect(upload.getByTestId('upload-approval')).toContainText(
    'the approver then sends it from their computer',
  );
  const stored = await team.cluster.query<{ n: string }>('SELECT count(*) AS n FROM desk.upload_file');
  expect(Number(stored.rows[0]?.n)).toBe(1);

  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  try {
    await openApp(bobPage, bobApp, 'approvals');
    await expect(bobPage.getByTestId('approvals-rule')).toContainText(
      'once approved, the approver’s computer sends it',
    );
    const row = bobPage.getByTestId('approval-row').filter({ hasText: 'Waiting' });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('approval-sender')).toHaveText('The approver sends it');
    expect(await seriousViolations(bobPage)).toEqual([]);
    await row.getByRole('link').click();
    await expect(bobPage.getByTestId('review-sender')).toHaveText('The approver, from their computer');
    await bobPage.getByRole('button', { name: 'Approve and send…' }).click();
    const confirm = bobPage.getByRole('dialog', { name: 'Approve and send this upload?' });
    await expect(confirm).toContainText('this computer sends this exact file');
    expect(await seriousViolations(bobPage)).toEqual([]);
    // What the dialog says until it is gone: it once read "Reject this upload?" while fading out.
    await watchTitle(bobPage, 'decide-title');
    await confirm.getByRole('button', { name: 'Approve and send', exact: true }).click();
    await expect(
      bobPage.getByText('You approved this upload and it was sent from this computer.'),
    ).toBeVisible({
      timeout: 30_000,
    });
    await expect(confirm).toBeHidden();
    expect(await titlesSeen(bobPage)).toEqual(['Approve and send this upload?']);
    await expect(bobPage.getByTestId('review-sender')).toContainText('bob');

    // His Uploads page follows it to the end; no workspace of his holds its rows.
    await nav(bobPage).getByRole('link', { name: 'Uploads' }).click();
    const sent = bobPage.getByRole('region', { name: /Upload of/ }).first();
    await expect(sent.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
      timeout: 90_000,
    });
    await expect(sent.getByTestId('upload-approval')).toContainText('Approved by bob');
  } finally {
    await bobContext.close();
  }

  // alice's app learns it was sent by bob at its next look, and sends nothing itself.
  const hers = page.getByRole('region', { name: /Upload of/ }).first();
  await page.goto(`${aliceApp.origin}/#/uploads`);
  await expect(async () => {
    // The page reads the list again on a reload (it is told of bulk changes, not of approvals).
    await page.reload();
    await expect(hers.getByTestId('upload-approval')).toContainText('sent by bob', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(hers.getByTestId('upload-approval')).toContainText('(not from this computer)');
  await expect(hers.getByTestId('intent-state')).toHaveCount(0);
  await expect(hers.getByTestId('upload-state')).toHaveText('Sent by bob');
  // The line left at submission ("… waits for an approver") no longer shows once it was sent.
  await expect(page.getByTestId('upload-notice')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  const events = await team.cluster.query<{ action: string; actor: string }>(
    "SELECT action, actor FROM desk.approval_event WHERE action = 'send'",
  );
  expect(events.rows).toEqual([{ action: 'send', actor: 'bob' }]);
});
