import type { Page } from '@playwright/test';
import { test as base, expect, openApp, seriousViolations } from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

const test = base.extend<{ bridge: BridgeProcess }>({
  // eslint-disable-next-line no-empty-pattern
  bridge: async ({}, use) => {
    const bridge = await startBridgeProcess(await newDataDir(), {
      DONATION_DESK_OFFLINE_TIME_SCALE: '600',
      DONATION_DESK_POLL_MIN_MS: '500',
      DONATION_DESK_POLL_MAX_MS: '2000',
    });
    await use(bridge);
    await bridge.stop();
  },
});

const grid = (page: Page) => page.getByRole('grid', { name: /Rows of/ });

async function retype(page: Page, text: string, value: string) {
  await grid(page).getByRole('gridcell', { name: text, exact: true }).first().click();
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

/** Moves the Offline sandbox's clock on, through its own controls (not part of the service). */
async function advanceServiceClock(bridge: BridgeProcess, seconds: number) {
  const info = await fetch(`${bridge.origin}/api/call/app.info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: '{}',
  });
  const { value } = (await info.json()) as { value: { environment: { baseUrl: string } } };
  const r = await fetch(`${value.environment.baseUrl}/_emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(r.ok).toBe(true);
}

test('follow an upload to CLEARED, correct the declined donation, see the month reconcile', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await retype(page, '10.005', '10.01');
  await retype(page, 'george.chen@', 'george.chen@acme.example');
  await retype(page, '840 56309746', '840-563097462');
  await page.getByRole('button', { name: 'Upload…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('intent-state').first()).toHaveText('PROCESSED', { timeout: 60_000 });

  // Ten virtual hours later every donation has reached the end of its life.
  await advanceServiceClock(bridge, 10 * 3600);
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
  await expect(page.getByTestId('status-DECLINED-USD')).toContainText('1 ·', { timeout: 30_000 });
  await expect(page.getByTestId('status-CLEARED-USD')).toContainText('38 ·');
  await expect(page.getByTestId('upload-reconciled').first()).toHaveText('Reconciled');
  await expect(page.getByTestId('donation-row')).toHaveCount(39);
  expect(await seriousViolations(page), 'axe on Reconcile').toEqual([]);

  // The declined one, with its reason in plain words; corrected as a new donation.
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1);
  await expect(declined).toContainText(/good standing/i);
  await declined.getByRole('button', { name: 'Correct' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a corrected donation' });
  await dialog.getByLabel('Recipient id').fill('840-446863710');
  await dialog.getByRole('button', { name: 'Create donation' }).click();
  await expect(declined.getByTestId('resolution')).toContainText('Replaced by');

  // The month-end report adds up.
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page.getByTestId('report-reconciled')).toHaveText('Reconciled', { timeout: 30_000 });
});
