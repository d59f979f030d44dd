import {
  fastTest as test,
  expect,
  openApp,
  grid,
  seriousViolations,
  sandboxSamples,
  sendAndProcess,
  reconcileLater,
  serviceFaults,
} from './fixtures';

test('declined donations fixed together in the grid and sent as one bulk file; a single donation from the form', async ({
  page,
  bridge,
}) => {
  const samples = await sandboxSamples(bridge);
  const good = samples.causesInGoodStanding[0] as { id: string; name: string };
  const [bad1, bad2] = samples.causesNotInGoodStanding as [string, string];
  const csv = [
    'Charity ID,Gift amount,Currency,Employee ID',
    `${good.id},10.00,USD,E1`,
    `${bad1},20.00,USD,E2`,
    `${bad2},30.50,USD,E3`,
  ].join('\n');
  await openApp(page, bridge);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(page);

  await reconcileLater(page, bridge);
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(2, { timeout: 30_000 });

  // Both declined ones into a grid; one bulk fix (fill down) puts a good cause on every row.
  await page.getByRole('button', { name: 'Select all open' }).click();
  await page.getByRole('button', { name: 'Fix 2 selected in a grid' }).click();
  await expect(page.getByRole('textbox', { name: 'Workspace name' })).toHaveValue(
    /^Corrections of 2 declined donations/,
    { timeout: 30_000 },
  );
  const first = grid(page).getByRole('gridcell', { name: bad1, exact: true });
  await first.click();
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(good.id);
  await page.keyboard.press('Enter');
  await grid(page).getByRole('gridcell', { name: good.id, exact: true }).first().click();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+d');
  await expect(grid(page).getByRole('gridcell', { name: good.id, exact: true })).toHaveCount(2);
  await expect(grid(page).getByRole('gridcell', { name: '30.50', exact: true })).toBeVisible();
  await sendAndProcess(page);

  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
  // Until the refresh has read the new bulk, the page shows them being replaced by its upload.
  await expect(declined.getByTestId('resolution')).toHaveText(
    [/^Replaced on .+ with a new donation/, /^Replaced on .+ with a new donation/],
    {
      timeout: 30_000,
    },
  );
  await expect(page.getByTestId('donation-row')).toHaveCount(5);

  // One donation from the form: the cause picked by name, a mistake shown on its field, then sent.
  await page.getByRole('button', { name: 'New donation' }).click();
  const form = page.getByRole('dialog', { name: 'New donation' });
  await form.getByRole('combobox', { name: 'Recipient' }).fill(good.name.slice(0, 5));
  await page
    .getByRole('option', { name: new RegExp(good.name) })
    .first()
    .click();
  await expect(form.getByRole('combobox', { name: 'Recipient' })).toHaveValue(good.id);
  await expect(form.getByText(good.name).first()).toBeVisible({ timeout: 10_000 });
  await form.getByRole('textbox', { name: 'Amount' }).fill('12.345');
  await form.getByRole('button', { name: 'Create donation' }).click();
  await expect(form.getByText(/more decimals than USD allows/)).toBeVisible();
  expect(await seriousViolations(page), 'axe on the donation form').toEqual([]);
  await form.getByRole('textbox', { name: 'Amount' }).fill('12.35');
  await form.getByRole('button', { name: 'Create donation' }).click();
  await expect(form.getByRole('status')).toContainText('created: $12.35');
  await form.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('donation-row')).toHaveCount(6);
});

test('corrections from the grid sent one by one, each result shown', async ({ page, bridge }) => {
  const samples = await sandboxSamples(bridge);
  const good = samples.causesInGoodStanding[1] as { id: string; name: string };
  const bad = samples.causesNotInGoodStanding[2] as string;
  const csv = ['Charity ID,Gift amount,Currency', `${bad},44.00,EUR`].join('\n');
  await openApp(page, bridge);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'december.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(page);
  await reconcileLater(page, bridge);
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1, { timeout: 30_000 });
  await declined.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Fix 1 selected in a grid' }).click();
  const cell = grid(page).getByRole('gridcell', { name: bad, exact: true });
  await cell.click();
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(good.id);
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /One by one/ }).check();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByTestId('correction-result')).toHaveText([
    /^Row 2: Replaced with a new donation of /,
  ]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await expect(declined.getByTestId('resolution')).toContainText(/^Replaced on .+ with a new donation/);
  await expect(page.getByTestId('donation-row')).toHaveCount(2);
});

test('a correction whose answer never came: looked for at the service, then sent again once', async ({
  page,
  bridge,
}) => {
  const samples = await sandboxSamples(bridge);
  const good = samples.causesInGoodStanding[2] as { id: string; name: string };
  const bad = samples.causesNotInGoodStanding[1] as string;
  const csv = ['Charity ID,Gift amount,Currency', `${good.id},5.00,USD`, `${bad},12.00,USD`].join('\n');
  await openApp(page, bridge);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'october.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(page);
  await reconcileLater(page, bridge);
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(1, { timeout: 30_000 });

  // The donations name their upload and the workspace row they came from.
  await expect(page.getByTestId('donation-bulk').first()).toHaveText('october');
  await expect(page.getByTestId('donation-source-row')).toHaveText(['row 2', 'row 3']);
  await page.getByTestId('donation-row').first().click();
  await expect(page.getByTestId('details-source-row')).toHaveText('row 2 of “october”');

  // The service fails while the correction is sent: no answer, so it may exist.
  await serviceFaults(bridge, { error500Rate: 1 });
  await declined.getByRole('button', { name: 'Correct' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a corrected donation' });
  await dialog.getByRole('combobox', { name: 'Recipient' }).fill(good.id);
  await dialog.getByRole('button', { name: 'Create donation' }).click();
  // The dialog closes (sending again takes a look first); the panel says what happened.
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'shows what to do next' })).toBeVisible();
  await serviceFaults(bridge, { reset: true });
  await expect(declined.getByTestId('resolution')).toContainText('got no answer');
  expect(await seriousViolations(page), 'axe on a correction without an answer').toEqual([]);

  // Every donation of the account is read: it is not there, so it can be sent again.
  await declined.getByRole('button', { name: 'Look for it at the service' }).click();
  await expect(declined.getByTestId('resolution')).toContainText('sending it again is safe');
  await page
    .getByRole('region', { name: /^Declined donations/ })
    .screenshot({ path: 'test-results/reconcile-lost-answer.png' });
  await declined.getByRole('button', { name: 'Send it again' }).click();
  const retry = page.getByRole('dialog', { name: 'Send the correction again' });
  // What was sent the first time, sent again.
  await expect(retry.getByRole('combobox', { name: 'Recipient' })).toHaveValue(good.id);
  await expect(retry.getByLabel('Amount (USD)')).toHaveValue('12.00');
  await retry.getByRole('button', { name: 'Send again' }).click();
  await expect(declined.getByTestId('resolution')).toContainText(/^Replaced on .+ with a new donation/);
  await expect(page.getByTestId('donation-row')).toHaveCount(3);
});
