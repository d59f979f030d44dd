import type { Page } from '@playwright/test';
import {
  fastTest as test,
  expect,
  openApp,
  reconcileLater,
  sandboxSamples,
  sendAndProcess,
  seriousViolations,
} from './fixtures';

/** A cause's name as the service gives it, asked through the app's own bridge. */
async function causeName(bridge: { origin: string; secret: string }, id: string): Promise<string> {
  const r = await fetch(`${bridge.origin}/api/call/causes.check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: JSON.stringify({ recipientId: id }),
  });
  return ((await r.json()) as { value: { label: string } }).value.label;
}

/**
 * Nothing sticks out sideways: no page scroll, no table wider than its box, no header cut short, no
 * amount broken across lines or spilling out of its cell.
 */
async function clipped(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth)
      found.push(`page is ${document.documentElement.scrollWidth}px wide in ${window.innerWidth}px`);
    for (const table of Array.from(document.querySelectorAll('main table'))) {
      const box = table.parentElement as HTMLElement;
      if (table.scrollWidth > box.clientWidth + 1)
        found.push(`${table.getAttribute('aria-label')}: ${table.scrollWidth}px in ${box.clientWidth}px`);
      for (const th of Array.from(table.querySelectorAll('th')))
        if (th.scrollWidth > th.clientWidth + 1) found.push(`header “${th.textContent}” is cut`);
      for (const cell of Array.from(
        table.querySelectorAll<HTMLElement>('[data-testid=donation-row] > td:nth-child(2)'),
      )) {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
        if (lines > 1 || cell.scrollWidth > cell.clientWidth + 1)
          found.push(`amount “${cell.textContent}” does not fit on one line`);
      }
    }
    return found;
  });
}

test('Reconcile in plain words at 1280 and 1440 px; a cause that cannot receive money is named and replaced', async ({
  page,
  bridge,
}) => {
  const samples = await sandboxSamples(bridge);
  const [good0, good1, good2] = samples.causesInGoodStanding as Array<{ id: string; name: string }>;
  const [bad1, bad2] = samples.causesNotInGoodStanding as [string, string];
  const csv = [
    'Charity ID,Gift amount,Currency,Employee ID',
    `${good0!.id},10.00,USD,E1`,
    `${good1!.id},25.00,EUR,E2`,
    // Wide enough to be broken across two lines in a narrow column ("$12,345.5" / "0").
    `${good2!.id},12345.50,USD,E3`,
    `${bad1},20.00,USD,E4`,
  ].join('\n');
  await openApp(page, bridge);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await sendAndProcess(page);

  // Before anything is read the upload is "not read yet", never "does not add up".
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await expect(page.getByTestId('upload-reconciled')).toHaveText('Not read yet');
  await expect(page.getByTestId('upload-note')).toHaveText(
    'Not read from the service yet: press Refresh from the service.',
  );

  // A single donation from the form to a cause that will be declined.
  await page.getByRole('button', { name: 'New donation' }).click();
  const form = page.getByRole('dialog', { name: 'New donation' });
  await form.getByRole('combobox', { name: 'Recipient' }).fill(bad2);
  await form.getByRole('textbox', { name: 'Amount' }).fill('30');
  await form.getByRole('button', { name: 'Create donation' }).click();
  await expect(form.getByRole('status')).toContainText('accepted, not yet decided');
  await form.getByRole('button', { name: 'Close' }).click();

  // Refresh from the service follows the single donation too: it reaches Declined.
  await reconcileLater(page, bridge);
  const declined = page.getByTestId('declined-donation');
  await expect(declined).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId('upload-reconciled')).toHaveText('Reconciled');
  await expect(
    page.getByRole('heading', { name: /The cause cannot receive donations at the moment · 2 donations/ }),
  ).toBeVisible();

  // Plain words everywhere; the codes stay in tooltips.
  const main = page.locator('main');
  for (const code of [
    'CAUSE_NOT_IN_GOOD_STANDING',
    'IN_PROGRESS',
    'ACCEPTED',
    'DECLINED',
    '(422',
    'minor units',
  ])
    await expect(main).not.toContainText(code);
  await expect(page.getByTestId('status-bar-label')).toHaveText([
    /^Euro \(EUR\) · 1 donation · /,
    // What goes ahead, and the declined ones apart: never added together.
    'US Dollar (USD) · 2 donations · $12,355.50, and 2 declined donations ($50.00) apart',
  ]);

  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const row = page.getByTestId('donation-row').first();
    await row.click();
    const details = page.getByTestId('donation-details');
    await expect(
      details.getByRole('list', { name: 'States seen' }).getByRole('listitem').first(),
    ).toContainText('Accepted, not yet decided: seen');
    // Beside the table, level with the row clicked, in view.
    const table = (await page.getByRole('table', { name: 'Donations' }).boundingBox())!;
    const box = (await details.boundingBox())!;
    const rowBox = (await row.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(table.x + table.width);
    expect(box.y).toBeLessThan(rowBox.y + rowBox.height);
    expect(box.y + 40).toBeLessThan(900);
    expect(await clipped(page)).toEqual([]);
    await page.screenshot({ path: `test-results/reconcile-${width}-donations.png` });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `test-results/reconcile-${width}-top.png` });
  }
  expect(await seriousViolations(page), 'axe on Reconcile').toEqual([]);

  // The month-end report fits too.
  await page.getByRole('button', { name: 'Show report' }).click();
  await expect(page.getByTestId('report-reconciled')).toBeVisible({ timeout: 30_000 });
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await clipped(page)).toEqual([]);
  }
  await page
    .getByRole('region', { name: /^Month-end report/ })
    .screenshot({ path: 'test-results/reconcile-report-1440.png' });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The Correct dialog: the declined cause is named as unable; another cause is picked by name.
  const single = declined.filter({ hasText: bad2 });
  await single.getByRole('button', { name: 'Correct' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a corrected donation' });
  await expect(dialog.getByTestId('correct-why')).toContainText('Pick another cause');
  await expect(dialog.getByTestId('recipient-helper')).toContainText('Cannot receive money', {
    timeout: 10_000,
  });
  const recipient = dialog.getByRole('combobox', { name: 'Recipient' });
  // Suggestions say which causes cannot receive money.
  await recipient.fill(await causeName(bridge, bad1));
  await expect(
    page.getByRole('option').filter({ hasText: bad1 }).getByTestId('cause-cannot-receive'),
  ).toBeVisible();
  await recipient.fill(good1!.name.slice(0, 6));
  await page
    .getByRole('option', { name: new RegExp(good1!.name) })
    .first()
    .click();
  await expect(recipient).toHaveValue(good1!.id);
  await expect(dialog.getByTestId('recipient-helper')).not.toContainText('Cannot receive money');
  await page.screenshot({ path: 'test-results/reconcile-correct-dialog.png' });
  await dialog.getByRole('button', { name: 'Create donation' }).click();
  await expect(single.getByTestId('resolution')).toContainText(/^Replaced on .+ with a new donation/);
});
