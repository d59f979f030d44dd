import { gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect, openApp, seriousViolations, grid, retype } from './fixtures';
import { startBridgeProcess } from './bridgeProcess';

const invalidCount = (page: Page) => page.getByTestId('summary-invalid');

async function openSample(page: Page) {
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await expect(page.getByLabel('Use “Charity ID” as')).toHaveText(/Recipient ID/);
  await expect(page.getByLabel('Use “Gift amount” as')).toHaveText(/Amount/);
  expect(await seriousViolations(page), 'axe on the mapping step').toEqual([]);
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(grid(page)).toBeVisible();
}

test('import the sample, fix cells, undo and redo, reopen after a crash, export', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  await openSample(page);
  await expect(invalidCount(page)).toHaveText('3');
  await expect(page.getByTestId('total-USD')).toContainText('in 36 donations');
  expect(await seriousViolations(page), 'axe on the review screen').toEqual([]);

  // The error shows on its cell, with the message on focus.
  const badAmount = grid(page).getByRole('gridcell', { name: '10.005', exact: true });
  await expect(badAmount).toHaveAttribute('data-state', 'error');
  await badAmount.click();
  await expect(page.getByTestId('grid-status')).toContainText(/USD|decimal/i);

  // Only rows with errors, and F8 to walk them.
  await page.getByLabel('Only rows with errors').check();
  await expect(grid(page).getByRole('row')).toHaveCount(4); // header + 3
  await grid(page).focus();
  await page.keyboard.press('F8');
  await expect(page.getByTestId('grid-status')).not.toContainText('no problems');
  await page.getByLabel('Only rows with errors').uncheck();

  await retype(page, '10.005', '10.01');
  await expect(invalidCount(page)).toHaveText('2');
  const edited = await grid(page)
    .getByRole('gridcell', { name: 'george.chen@', exact: true })
    .getAttribute('id');
  const [, row, column] = /^grid-cell-(\d+)-(\d+)$/.exec(edited ?? '') ?? [];
  await retype(page, 'george.chen@', 'george.chen@acme.example');
  await expect(invalidCount(page)).toHaveText('1');
  // Enter commits and moves down a row, as in a spreadsheet (the editor losing focus is no second commit).
  await expect(grid(page)).toHaveAttribute('aria-activedescendant', `grid-cell-${Number(row) + 1}-${column}`);

  // Undo and redo, from the keyboard.
  await grid(page).focus();
  await page.keyboard.press('Control+Z');
  await expect(invalidCount(page)).toHaveText('2');
  await page.keyboard.press('Control+Y');
  await expect(invalidCount(page)).toHaveText('1');
  await expect(page.getByText('All changes saved')).toBeVisible();

  // Kill the app outright: every edit that showed is there when it comes back.
  await bridge.kill();
  const again = await startBridgeProcess(bridge.dataDir);
  try {
    await page.goto(again.url);
    await page.goto(`${again.origin}/#/prepare`);
    await page.getByRole('button', { name: 'sample-donations (November)', exact: true }).click();
    await expect(grid(page)).toBeVisible();
    await expect(invalidCount(page)).toHaveText('1');
    await expect(grid(page).getByRole('gridcell', { name: '10.01', exact: true })).toBeVisible();

    // Fix the last one, then export the exact bulk file.
    await retype(page, '840 56309746', '840-563097462');
    await expect(invalidCount(page)).toHaveText('0');
    await page.getByRole('button', { name: 'Export' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: /Bulk file/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.json\.gz$/);
    const bulk = JSON.parse(gunzipSync(await readFile((await download.path())!)).toString('utf8')) as {
      data: {
        type: string;
        attributes: { funds: { amount: number; paymentType: string; source: string } };
      }[];
    };
    expect(Object.keys(bulk)).toEqual(['data']);
    expect(bulk.data).toHaveLength(39);
    expect(bulk.data[0]?.type).toBe('donations');
    expect(bulk.data[0]?.attributes.funds).toMatchObject({
      amount: 2500,
      paymentType: 'DONATION_REPORT',
      source: 'COMPANY',
    });
  } finally {
    await again.stop();
  }
});

test('a semicolon CSV with comma decimals: paste a block, fill down, find and replace, add and delete rows', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  const csv = [
    'Cause ID;Donation (€);Donor name;Employee email',
    '840-563097462;1.234,56;Ana Lopez;ana@acme.example',
    '840-446863710;12,50;Ben Okafor;ben@acme.example',
    '840-446863710;;Chloé Martin;chloe@acme.example',
    '840-446863710;7,00;Dev Patel;dev@acme',
  ].join('\r\n');
  // The rows sent ahead while the mapping shows never reach main here (as after a restart of main):
  // the workspace is still made, with the rows sent again on confirming.
  await page.route('**/api/call/workspace.stageRows', (route) =>
    route.fulfill({
      json: { ok: true, value: { stageId: '0f8fad5b-d9cb-469f-a165-70867728950e', rowCount: 4 } },
    }),
  );
  const creates: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/workspace.create')) creates.push(request.headers()['content-type'] ?? '');
  });
  await page.getByTestId('file-input').setInputFiles({
    name: 'donations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  // "Donation (€)" names the currency, so it is offered for the whole file.
  await expect(page.getByLabel('Currency for the whole file')).toHaveValue('EUR');
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(invalidCount(page)).toHaveText('2');
  await expect(page.getByTestId('total-EUR')).toContainText('€1,247.06');
  // First by the staged id (JSON), refused, then with the rows attached as bytes.
  expect(creates).toEqual(['application/json', 'application/vnd.donation-desk.call+bytes']);

  // Paste a 1×2 block from Excel over the empty amount: the second value goes to the next row.
  await grid(page).getByRole('gridcell', { name: '12,50', exact: true }).click();
  await grid(page).evaluate((el) => {
    const data = new DataTransfer();
    data.setData('text/plain', '20,00\r\n30,00\r\n');
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(grid(page).getByRole('gridcell', { name: '30,00', exact: true })).toBeVisible();
  await expect(invalidCount(page)).toHaveText('1');

  // Find and replace fixes the email, as one step.
  await grid(page).focus();
  await page.keyboard.press('Control+F');
  await page.getByRole('textbox', { name: 'Find' }).fill('dev@acme');
  await page.getByLabel('Replace with').fill('dev@acme.example');
  await page.getByLabel('Whole cell').check();
  await page.getByRole('button', { name: 'Replace all' }).click();
  await expect(page.getByText('Replaced in 1 cell.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(invalidCount(page)).toHaveText('0');

  // Add a row, fill it down from the one above with Shift+Down then Ctrl+D, then delete it.
  await grid(page).getByRole('gridcell', { name: 'Dev Patel', exact: true }).click();
  await page.getByRole('button', { name: 'Add row' }).click();
  await expect(page.getByTestId('summary-rows')).toHaveText('5');
  await grid(page).getByRole('gridcell', { name: '840-446863710', exact: true }).last().click();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+D');
  await expect(grid(page).getByRole('gridcell', { name: '840-446863710', exact: true })).toHaveCount(4);
  await page.getByRole('button', { name: 'Delete row' }).click();
  await expect(page.getByTestId('summary-rows')).toHaveText('4');
});

test('a recipient chosen in Search goes into the selected row', async ({ page, bridge }) => {
  await openApp(page, bridge);
  await openSample(page);
  await expect(invalidCount(page)).toHaveText('3');
  await page.evaluate(() =>
    sessionStorage.setItem(
      'donation-desk.recipient',
      JSON.stringify({
        recipientId: '840-563097462',
        label: 'River Scholarship Society',
        chosenAt: new Date().toISOString(),
      }),
    ),
  );
  await page.getByRole('button', { name: 'All workspaces' }).click();
  await page.getByRole('button', { name: 'sample-donations (November)', exact: true }).click();
  await expect(
    page.getByText('Recipient 840-563097462 (River Scholarship Society) was chosen in Search.'),
  ).toBeVisible();
  // Select the row with the broken recipient id, then use the chosen one.
  await grid(page).getByRole('gridcell', { name: '840 56309746', exact: true }).click();
  await page.getByRole('button', { name: /Put it in row 17/ }).click();
  await expect(grid(page).getByRole('gridcell', { name: '840 56309746', exact: true })).toHaveCount(0);
  await expect(invalidCount(page)).toHaveText('2');
});

test('while the sample is fetched and read, it cannot be opened a second time', async ({ page, bridge }) => {
  await openApp(page, bridge);
  // The sample's bytes are held back until the test lets them through, so the wait can be seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/call/assets.sampleSpreadsheet', async (route) => {
    await held;
    await route.continue();
  });
  const openSampleButton = page.getByRole('button', { name: 'Open the sample spreadsheet' });
  await openSampleButton.click();
  await expect(openSampleButton).toHaveCount(0);
  release();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  // Cancelled from the mapping step, the sample can be opened again.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(openSampleButton).toBeVisible();
});

test('the mapping step at 1280 px: an unused column reads Not used, and no label or choice is cut short', async ({
  page,
  bridge,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openApp(page, bridge);
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await expect(page.getByLabel('Use “Employee ID” as')).toHaveText('Not used');
  // Detect from the file says what it found.
  await expect(page.getByText('Found in this file: 1,234.56')).toBeVisible();
  const cut = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('main label, main [role=combobox]'))
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent),
  );
  expect(cut).toEqual([]);

  // In the grid, what each column is used as is not cut short either.
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(grid(page)).toBeVisible();
  const cutTargets = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.dg-colhead'))
      .filter((head) => {
        const target = head.querySelector<HTMLElement>('.dg-colhead-target');
        return target && target.scrollWidth > target.clientWidth + 1;
      })
      .map((head) => head.textContent),
  );
  expect(cutTargets).toEqual([]);
});
