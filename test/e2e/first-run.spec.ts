import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  firstRunTest as test,
  expect,
  fixSampleLocalErrors,
  grid,
  retype,
  seriousViolations,
  donationsAtService,
  SAMPLE_RIGHT_RECIPIENT,
  SAMPLE_UNKNOWN_RECIPIENT,
} from './fixtures';

/**
 * `DESK_SCREENSHOTS=1 npx playwright test test/e2e/first-run.spec.ts` also writes the guides'
 * screenshots (docs/images, 1440 px wide) from this walk.
 */
const SCREENSHOTS = process.env.DESK_SCREENSHOTS === '1';
const WIDTH = 1440;
const HEIGHT = 900;

test.use({ viewport: { width: WIDTH, height: HEIGHT } });

/** A screenshot for the guides in docs/ (only with DESK_SCREENSHOTS=1); `height` shows more of a long page. */
async function shot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; height?: number; width?: number } = {},
): Promise<void> {
  if (!SCREENSHOTS) return;
  await mkdir('docs/images', { recursive: true });
  const resized = options.height || options.width;
  if (resized)
    await page.setViewportSize({ width: options.width ?? WIDTH, height: options.height ?? HEIGHT });
  // Let fades and progress bars settle, as in the accessibility checks.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  await page.screenshot({ path: `docs/images/${name}.png`, fullPage: options.fullPage ?? false });
  if (resized) await page.setViewportSize({ width: WIDTH, height: HEIGHT });
}

const area = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name }).click();

test('first run: the sample from import to a month-end that reconciles, through a repair and a correction', async ({
  page,
  bridge,
}) => {
  test.setTimeout(240_000);

  // The welcome page opens the sample in Prepare; the mapping is suggested from its headers.
  await page.goto(bridge.url);
  await page.getByRole('button', { name: 'Try it with the sample spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await expect(page.getByLabel('Use “Charity ID” as')).toHaveText(/Recipient ID/);
  await shot(page, 'prepare-mapping');
  await page.getByRole('button', { name: 'Check every row' }).click();

  // 1. The app's own checks: three cells, marked where they are.
  await expect(page.getByTestId('summary-invalid')).toHaveText('3');
  await grid(page).getByRole('gridcell', { name: '10.005', exact: true }).click();
  await expect(page.getByTestId('grid-status')).toContainText(/decimal/i);
  await expect(page.getByText('Largest recipients').locator('..').getByRole('listitem')).toHaveCount(5);
  await shot(page, 'prepare-review');
  // The recipient the service does not know is well-formed: nothing here can tell.
  await expect(
    grid(page).getByRole('gridcell', { name: SAMPLE_UNKNOWN_RECIPIENT, exact: true }),
  ).not.toHaveAttribute('data-state', 'error');
  await fixSampleLocalErrors(page);
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');

  // 2. Upload: every row is ready; the service validates the file and refuses one row.
  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(dialog).toContainText('This goes to Offline sandbox');
  await expect(dialog).toContainText('39 of 39 rows are ready');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await expect(page.getByTestId('intent-state').first()).toHaveText('Rejected', { timeout: 90_000 });
  await expect(page.getByTestId('upload-state').first()).toHaveText('Needs repair');
  // Said as it is: the whole file was refused for one row, and that row is named.
  await expect(page.getByTestId('intent-error').first()).toHaveText(
    'The service refused the whole file: 1 of its 39 rows has an error, so no donation was created. Fix that row and send the file again.',
  );
  await expect(page.getByTestId('intent-refused-rows').first()).toHaveText(
    'Row 24 of the spreadsheet needs fixing.',
  );
  await shot(page, 'uploads-needs-repair');
  expect(await donationsAtService(bridge), 'a refused file creates nothing').toBe(0);

  // 3. The service's error on its cell, in plain words; fixed there.
  await page.getByRole('button', { name: 'Fix the rows' }).click();
  await expect(page.getByTestId('repair-note')).toContainText('1 problem in 1 row is marked on its cell');
  // While the refusal sits on its cell, the summary counts that row as invalid.
  await expect(page.getByTestId('summary-invalid')).toHaveText('1');
  const refused = grid(page).getByRole('gridcell', { name: SAMPLE_UNKNOWN_RECIPIENT, exact: true });
  await expect(refused).toHaveAttribute('data-state', 'error');
  await expect(refused).toHaveAttribute(
    'title',
    /service refused this: The service does not know this recipient/i,
  );
  // Only rows with errors: the refused row alone, its message under the grid.
  await page.getByLabel('Only rows with errors').check();
  await expect(grid(page).getByRole('row')).toHaveCount(2); // header + the refused row
  await refused.click();
  await expect(page.getByTestId('grid-status')).toContainText(
    /service refused this: The service does not know this recipient/i,
  );
  await page.getByTestId('grid-status').scrollIntoViewIfNeeded();
  await shot(page, 'upload-repair');
  await page.getByLabel('Only rows with errors').uncheck();
  await retype(page, SAMPLE_UNKNOWN_RECIPIENT, SAMPLE_RIGHT_RECIPIENT);
  await expect(grid(page).getByRole('gridcell', { name: SAMPLE_UNKNOWN_RECIPIENT, exact: true })).toHaveCount(
    0,
  );
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');

  // 4. Send corrected rows: the refused file created nothing, so all 39 go, once.
  await page.getByRole('button', { name: 'Send corrected rows' }).click();
  const resend = page.getByRole('dialog', { name: 'Send the corrected rows' });
  await expect(resend).toContainText('$8,607.26 in 39 donations');
  await resend.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await expect(page.getByTestId('upload-state').first()).toHaveText('Processed', { timeout: 90_000 });
  await expect(page.getByText('Corrected by a later upload.')).toBeVisible();
  expect(await donationsAtService(bridge)).toBe(39);

  // 5. The sandbox's clock, moved on from Settings: every donation reaches the end of its life.
  await area(page, 'Settings');
  const clock = page.getByRole('region', { name: 'Offline sandbox clock' });
  await expect(clock.getByTestId('sandbox-speed')).toContainText('60 times faster than real time');
  await clock.getByRole('button', { name: 'Move forward 10 hours' }).click();
  await expect(clock.getByRole('status')).toContainText('moved forward 10 hours');
  await page.getByTestId('environment-badge').hover();
  await expect(page.getByRole('tooltip')).toContainText('60 times faster');
  await shot(page, 'settings-sandbox-clock');

  // 6. Reconcile: the cause not in good standing was declined; it is corrected with another cause.
  await area(page, 'Reconcile');
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1, { timeout: 30_000 });
  await expect(declined).toContainText(/cannot receive donations/i);
  await expect(page.getByTestId('status-CLEARED-USD')).toContainText('38 ·');
  await expect(page.getByTestId('donation-row')).toHaveCount(39);
  await shot(page, 'reconcile-declined');
  expect(await seriousViolations(page), 'axe on Reconcile').toEqual([]);
  await declined.getByRole('button', { name: 'Correct' }).click();
  const correct = page.getByRole('dialog', { name: 'Create a corrected donation' });
  await correct.getByRole('combobox', { name: 'Recipient' }).fill('840-446863710');
  await shot(page, 'reconcile-correct-cause');
  await correct.getByRole('button', { name: 'Create donation' }).click();
  // Said once done, in the words of the money; the declined one named by what replaced it, and the
  // headline never counts the two together.
  await expect(page.getByTestId('declined-done')).toHaveText(
    /^A corrected donation of \$35\.00 to 840-446863710 was created\./,
  );
  await expect(declined.getByTestId('resolution')).toHaveText(
    /^Replaced on .+ with a new donation of \$35\.00 to 840-446863710\.$/,
  );
  await expect(page.getByTestId('status-bar-label')).toHaveText(
    'US Dollar (USD) · 39 donations · $8,607.26, and 1 declined donation ($35.00) apart',
  );

  if (SCREENSHOTS) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, 'reconcile-overview');
    // One donation's details and the states it went through, beside the list, at 1280 px.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('donation-row').nth(1).click();
    await expect(page.getByTestId('donation-details')).toBeVisible();
    await page.getByRole('heading', { name: /^Donations/ }).evaluate((h) => {
      const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
      window.scrollBy(0, h.getBoundingClientRect().top - bar - 16);
    });
    await shot(page, 'reconcile-donations');
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  }

  // 7. The month-end report reconciles: both uploads' rows and the correction, each counted once.
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page.getByTestId('report-reconciled')).toHaveText('Reconciled', { timeout: 30_000 });
  await page.emulateMedia({ media: 'print' });
  await shot(page, 'reconcile-month-report', { fullPage: true });
  await page.emulateMedia({ media: 'screen' });
});
