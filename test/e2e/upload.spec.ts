import type { Page } from '@playwright/test';
import {
  fastTest as test,
  expect,
  openApp,
  seriousViolations,
  grid,
  retype,
  openFixedSample,
  donationsAtService,
} from './fixtures';

async function importCsv(page: Page, name: string, lines: string[]) {
  await page
    .getByTestId('file-input')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(grid(page)).toBeVisible();
}

test('upload the fixed sample to the Offline sandbox and follow it to PROCESSED', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  // Main is slow to journal the edits: Upload… must wait for them (main builds the file from its copy).
  await page.route('**/api/call/workspace.edit', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.continue();
  });
  await openFixedSample(page);
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');
  await expect(page.getByText('Saving…')).toBeVisible();

  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(dialog).toContainText('This goes to Offline sandbox');
  await expect(dialog).toContainText('39 of 39 rows are ready');
  expect(await seriousViolations(page), 'axe on the upload dialog').toEqual([]);
  await dialog.getByRole('button', { name: 'Send' }).click();

  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
    timeout: 60_000,
  });
  await expect(page.getByTestId('upload-state').first()).toHaveText('Processed');
  // The file is named by what a person knows; the service's id is in a tooltip and can be copied.
  const file = page.getByTestId('intent-name').first();
  await expect(file).toContainText('sample-donations (November)');
  await expect(page.getByTestId('intent-sent').first()).toHaveText(/^Sent .+ · Offline sandbox$/);
  const serviceId = (await file.getAttribute('data-service-id')) ?? '';
  expect(serviceId).not.toBe('');
  await expect(page.getByRole('table', { name: 'Files of this upload' }).first()).not.toContainText(
    serviceId,
  );
  await file.hover();
  await expect(page.getByRole('tooltip')).toHaveText(`The service’s id for this file: ${serviceId}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: `Copy the service’s id ${serviceId}` }).click();
  await expect(page.getByRole('tooltip', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(serviceId);
  expect(await seriousViolations(page), 'axe on Uploads').toEqual([]);
  expect(await donationsAtService(bridge)).toBe(39);

  // The duplicate guard: the same rows again need an explicit yes.
  await page.goto(`${bridge.origin}/#/prepare`);
  await page.getByRole('button', { name: 'sample-donations (November)', exact: true }).click();
  await page.getByRole('button', { name: 'Upload…' }).click();
  const again = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(again).toContainText('39 rows already went out');
  // The earlier file is named by when it went out; the service's id only in the tooltip.
  await expect(again.getByTestId('duplicate-example')).toHaveText(/^row \d+, sent \S.+$/);
  await expect(again.getByTestId('duplicate-example')).toHaveAttribute(
    'title',
    `The service’s id for the earlier file: ${serviceId}`,
  );
  await expect(again).not.toContainText(serviceId);
  await expect(again.getByRole('button', { name: 'Send' })).toBeDisabled();
  await again.getByRole('button', { name: 'Cancel' }).click();
});

test('a row the service refuses: its error on its cell, fixed, resent, processed, nothing sent twice', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  // 840-56309746 has the shape of a cause id here, but the service wants nine digits after the dash.
  await importCsv(page, 'refused.csv', [
    'Charity ID,Gift amount,Currency,Employee email',
    '840-563097462,25.00,USD,ana@acme.example',
    '840-56309746,40.00,USD,ben@acme.example',
    '840-446863710,15.00,USD,chloe@acme.example',
  ]);
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');
  await page.getByRole('button', { name: 'Upload…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();

  await expect(page.getByTestId('intent-state').first()).toHaveText('Rejected', { timeout: 60_000 });
  await expect(page.getByTestId('upload-state').first()).toHaveText('Needs repair');
  await page.getByRole('button', { name: 'Fix the rows' }).click();

  await expect(page.getByTestId('repair-note')).toHaveText(
    'The service refused this upload: 1 problem in 1 row is marked on its cell. Fix it, then choose Send corrected rows.',
  );
  const refused = grid(page).getByRole('gridcell', { name: '840-56309746', exact: true });
  await expect(refused).toHaveAttribute('data-state', 'error');
  await expect(refused).toHaveAttribute('title', /service refused/i);
  // The summary counts the refused row as invalid while the refusal sits on its cell.
  await expect(page.getByTestId('summary-invalid')).toHaveText('1');
  await expect(page.getByTestId('summary-valid')).toHaveText('2');
  await expect(page.getByTestId('total-USD')).toHaveText('$40.00 in 2 donations');
  // Sending before the fix would only be refused again: the dialog says so.
  await page.getByRole('button', { name: 'Send corrected rows' }).click();
  const early = page.getByRole('dialog', { name: 'Send the corrected rows' });
  await expect(early.getByTestId('unchanged-refusals')).toHaveText(
    "1 row still has the service's refusal on an unchanged cell: sent as it is, the service will refuse it again. Cancel and fix it first (F8 goes to each).",
  );
  await early.getByRole('button', { name: 'Cancel' }).click();
  await retype(page, '840-56309746', '840-563097462');
  await expect(
    grid(page).getByRole('gridcell', { name: '840-563097462', exact: true }).nth(1),
  ).not.toHaveAttribute('data-state', 'error');
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');
  await expect(page.getByTestId('summary-valid')).toHaveText('3');
  await expect(page.getByTestId('total-USD')).toHaveText('$80.00 in 3 donations');

  await page.getByRole('button', { name: 'Send corrected rows' }).click();
  const resend = page.getByRole('dialog', { name: 'Send the corrected rows' });
  await expect(resend.getByTestId('upload-summary')).toBeVisible();
  await expect(resend.getByTestId('unchanged-refusals')).toHaveCount(0);
  await resend.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
  await expect(page.getByTestId('upload-state').first()).toHaveText('Processed', { timeout: 60_000 });
  await expect(page.getByText('Corrected by a later upload.')).toBeVisible();
  // The rejected bulk's timeline names each later event by what happened, not "Rejected" three times;
  // the correcting upload names the one it corrects by its time, not by the service's id.
  const rejectedTimeline = page.getByRole('list', { name: /^Timeline of / }).nth(1);
  await expect(rejectedTimeline.getByRole('listitem')).toContainText([
    /^Rejected · /,
    /^No donation was created · /,
    /^Rejected rows sent again in a later upload · /,
  ]);
  await expect(page.getByTestId('upload-corrects')).toHaveText(/^ · corrects the upload of /);
  // The refused file created no donation; the corrected one created all three, once.
  expect(await donationsAtService(bridge)).toBe(3);

  // Sending the same rows again needs a yes for each row (or for all of them).
  await page.goto(`${bridge.origin}/#/prepare`);
  await page.getByRole('button', { name: 'refused', exact: true }).click();
  await page.getByRole('button', { name: 'Upload…' }).click();
  const again = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(again).toContainText('3 rows already went out');
  const rows = again.getByRole('group', { name: 'Rows sent before' }).getByRole('checkbox');
  await expect(rows).toHaveCount(3);
  await rows.nth(0).check();
  await rows.nth(1).check();
  await expect(again.getByRole('button', { name: 'Send' })).toBeDisabled();
  await rows.nth(2).check();
  await expect(again.getByRole('button', { name: 'Send' })).toBeEnabled();
  await again.getByRole('button', { name: 'Cancel' }).click();
  expect(await donationsAtService(bridge)).toBe(3);
});

test('a file holding rows sent before and new ones: send only the new rows, nothing goes twice', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  const sent = ['840-563097462,25.00,USD,ana@acme.example', '840-446863710,15.00,USD,chloe@acme.example'];
  await importCsv(page, 'early.csv', ['Charity ID,Gift amount,Currency,Employee email', ...sent]);
  await page.getByRole('button', { name: 'Upload…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
    timeout: 60_000,
  });
  expect(await donationsAtService(bridge)).toBe(2);

  // The month's full list comes later: the same two rows, and three new ones.
  await page.goto(`${bridge.origin}/#/prepare`);
  await importCsv(page, 'full.csv', [
    'Charity ID,Gift amount,Currency,Employee email',
    ...sent,
    '250-127883502,10.00,USD,dev@acme.example',
    '840-695196762,20.00,USD,emma@acme.example',
    '124-423823932,30.00,USD,hana@acme.example',
  ]);
  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(dialog).toContainText('2 rows already went out');
  const summary = dialog.getByTestId('upload-summary');
  await expect(summary).toHaveText('5 of 5 rows are ready: $100.00 in 5 donations.');
  const send = dialog.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel('Send only the 3 new rows; leave out the 2 rows sent before').check();
  // The summary says what goes: the three new rows and their amount, not the whole file's.
  await expect(summary).toHaveText(
    '3 of 5 rows will go (the 2 rows sent before are left out): $60.00 in 3 donations.',
  );
  await expect(dialog.getByRole('group', { name: 'Rows sent before' })).toBeHidden();
  await expect(send).toBeEnabled();
  await send.click();
  await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
    timeout: 60_000,
  });
  // Three new donations; the two sent before were left out.
  expect(await donationsAtService(bridge)).toBe(5);
});
