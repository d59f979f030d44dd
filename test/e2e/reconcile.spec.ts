import { readFile } from 'node:fs/promises';
import * as XLSX from 'xlsx';
import {
  fastTest as test,
  backgroundRefreshTest,
  advanceServiceClock,
  expect,
  openApp,
  seriousViolations,
  openFixedSample,
  sendAndProcess,
  reconcileLater,
  titlesSeen,
  watchTitle,
} from './fixtures';

test('follow an upload to CLEARED, correct the declined donation, see the month reconcile', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  await openFixedSample(page);
  await sendAndProcess(page);

  // Ten virtual hours later every donation has reached the end of its life.
  await reconcileLater(page, bridge);
  await expect(page.getByTestId('status-DECLINED-USD')).toContainText('1 ·', { timeout: 30_000 });
  await expect(page.getByTestId('status-CLEARED-USD')).toContainText('38 ·');
  await expect(page.getByTestId('upload-reconciled').first()).toHaveText('Reconciled');
  await expect(page.getByTestId('donation-row')).toHaveCount(39);
  expect(await seriousViolations(page), 'axe on Reconcile').toEqual([]);

  // Filtered to the declined one, whose states seen are listed when it is chosen.
  const statusFilter = page.getByRole('combobox', { name: 'Status' });
  await statusFilter.click();
  await page.getByRole('option', { name: 'Declined' }).click();
  await expect(page.getByTestId('donation-row')).toHaveCount(1);
  await page.getByTestId('donation-row').click();
  await expect(page.getByRole('list', { name: 'States seen' }).getByRole('listitem').last()).toContainText(
    'Declined: seen',
  );
  await statusFilter.click();
  await page.getByRole('option', { name: 'Every status' }).click();
  await expect(page.getByTestId('donation-row')).toHaveCount(39);

  // The declined one, with its reason in plain words; corrected as a new donation.
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1);
  await expect(declined).toContainText('The cause cannot receive donations at the moment');
  await declined.getByRole('button', { name: 'Correct' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a corrected donation' });
  await dialog.getByRole('combobox', { name: 'Recipient' }).fill('840-446863710');
  await dialog.getByRole('button', { name: 'Create donation' }).click();
  await expect(declined.getByTestId('resolution')).toContainText(/^Replaced on .+ with a new donation/);

  // The month-end report adds up.
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page.getByTestId('report-reconciled')).toHaveText('Reconciled', { timeout: 30_000 });
  // As printed: the report alone (the month-end guide's picture of it).
  await page.emulateMedia({ media: 'print' });
  await page
    .getByRole('region', { name: /^Month-end report/ })
    .screenshot({ path: 'test-results/reconcile-month-report.png' });
  await page.emulateMedia({ media: 'screen' });

  // Its xlsx: the same sheets as the CLI's, the upload's control total in minor units.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export xlsx' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^month-end-report-\d{4}-\d{2}\.xlsx$/);
  const book = XLSX.read(await readFile(await download.path()));
  expect(book.SheetNames).toEqual(['Summary', 'Uploads', 'About']);
  const uploads = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Uploads!);
  expect(uploads).toHaveLength(1);
  expect(uploads[0]).toMatchObject({
    Workspace: 'sample-donations (November)',
    Currency: 'USD',
    'Submitted (count)': 39,
    'This currency adds up': 'yes',
  });
  const summary = XLSX.utils.sheet_to_json<Record<string, unknown>>(book.Sheets.Summary!);
  expect(summary[0]).toMatchObject({ Currency: 'USD', Reconciled: 'yes', 'Sent one by one (count)': 1 });
});

backgroundRefreshTest(
  'the open Reconcile page shows what the background refresh learns, without a click; a decline dismissed',
  async ({ page, bridge }) => {
    await openApp(page, bridge);
    await openFixedSample(page);
    await sendAndProcess(page);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
    await expect(page.getByRole('heading', { name: 'Reconcile', level: 1 })).toBeVisible();
    // Ten virtual hours pass while the page is open; nobody presses Refresh.
    await advanceServiceClock(bridge, 10 * 3600);
    await expect(page.getByTestId('status-CLEARED-USD')).toContainText('38 ·', { timeout: 30_000 });
    const declined = page.getByTestId('declined-donation');
    await expect(declined).toHaveCount(1);

    // Dismissed with a reason, it is no longer open.
    await expect(page.getByRole('heading', { name: 'Declined donations: 1 open of 1' })).toBeVisible();
    await declined.getByRole('button', { name: 'Dismiss' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dismiss the declined donation' });
    await expect(dialog.getByRole('button', { name: 'Dismiss' })).toBeDisabled();
    await dialog.getByLabel('Reason').fill('Cause closed; gift moved to December');
    // What the dialog says until it is gone: it once read "Create a corrected donation" while fading out.
    await watchTitle(page, 'declined-action-title');
    await dialog.getByRole('button', { name: 'Dismiss' }).click();
    await expect(declined.getByTestId('resolution')).toHaveText(
      'Dismissed: Cause closed; gift moved to December',
    );
    await expect(dialog).toBeHidden();
    expect(await titlesSeen(page)).toEqual(['Dismiss the declined donation']);
    await expect(page.getByRole('heading', { name: 'Declined donations: 0 open of 1' })).toBeVisible();
  },
);
