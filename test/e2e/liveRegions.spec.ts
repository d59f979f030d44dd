import {
  test,
  fastTest,
  expect,
  openApp,
  grid,
  retype,
  fixSampleLocalErrors,
  seriousViolations,
} from './fixtures';
import type { Page } from '@playwright/test';
import { recordSpeech, spoken, timesSaid } from './liveRegionLog';

const announcer = (page: Page) => page.getByTestId('announcer');

test('an edit is announced once, for the cell edited, with the rows left; moves and saving are not', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  await recordSpeech(page);
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page.getByTestId('summary-invalid')).toHaveText('3');
  // The rows set aside above the header were said once, not as an alert on each screen.
  await expect.poll(() => timesSaid(page, /not imported/)).toBe(1);

  // An e-mail still wrong after the edit is said to be still invalid, about the cell edited (the
  // grid has moved on to the next row by then).
  await retype(page, 'george.chen@', 'still@wrong');
  await expect(announcer(page)).toHaveText(
    /^Row \d+, Employee email: still invalid — .+; 3 rows with errors\.$/,
  );
  const still = (await announcer(page).textContent()) ?? '';
  expect(still).not.toMatch(/no problems/);
  await expect(grid(page).getByRole('gridcell', { name: 'still@wrong', exact: true })).toHaveAttribute(
    'data-state',
    'error',
  );
  // Fixed: said so, with the rows left; the Invalid count's change is in the same words.
  await retype(page, 'still@wrong', 'george.chen@acme.example');
  await expect(announcer(page)).toHaveText(/^Row \d+, Employee email: fixed; 2 rows left with errors\.$/);
  await expect(page.getByTestId('summary-invalid')).toHaveText('2');
  // Each said once, by one live region.
  expect(await timesSaid(page, /still invalid/)).toBe(1);
  expect(await timesSaid(page, /fixed; 2 rows left/)).toBe(1);

  // Arrow moves: the grid's active cell speaks (aria-activedescendant); no live region repeats it.
  const before = (await spoken(page)).length;
  const rows = grid(page);
  await rows.focus();
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowUp']) {
    const was = await rows.getAttribute('aria-activedescendant');
    await page.keyboard.press(key);
    await expect(rows).not.toHaveAttribute('aria-activedescendant', was ?? '');
    await expect(rows).toBeFocused();
  }
  expect((await spoken(page)).slice(before)).toEqual([]);
  await expect(page.getByTestId('grid-status')).not.toHaveAttribute('aria-live', /.*/);

  // Undo brings the error back: the count that changed is said.
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('summary-invalid')).toHaveText('3');
  await expect(announcer(page)).toHaveText('3 rows with errors.');

  // Saving after each edit is not news.
  expect(await timesSaid(page, /Saving|All changes saved/)).toBe(0);
  expect(await seriousViolations(page), 'axe on Prepare with errors').toEqual([]);
});

test('the Grid tools are one Tab stop, and the arrow keys move between them', async ({ page, bridge }) => {
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  const tools = page.getByRole('toolbar', { name: 'Grid tools' });
  await expect(grid(page)).toBeFocused();
  // Backwards from the grid: past the tools in one Tab stop.
  await tools.getByRole('switch', { name: 'Only rows with errors' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tools.getByRole('button', { name: 'Previous error' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tools.getByRole('button', { name: 'Next error' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(tools.getByRole('button', { name: 'Upload…' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(tools.getByRole('switch', { name: 'Only rows with errors' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tools.getByRole('button', { name: 'Upload…' })).toBeFocused();
  // Only the tool last used is in the Tab order; Tab leaves the toolbar.
  const stops = await tools.evaluate(
    (el) =>
      Array.from(el.querySelectorAll<HTMLElement>('button, input')).filter((c) => c.tabIndex === 0).length,
  );
  expect(stops).toBe(1);
  await page.keyboard.press('Tab');
  const inTools = await tools.evaluate((el) => el.contains(document.activeElement));
  expect(inTools).toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(tools.getByRole('button', { name: 'Upload…' })).toBeFocused();
  // Enter works as ever on the tool reached by arrows.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('grid-status')).not.toContainText('no problems');
});

fastTest(
  'an upload’s outcome is announced once, and files and states are named by what is seen',
  async ({ page, bridge }) => {
    test.setTimeout(150_000);
    await openApp(page, bridge, 'prepare');
    await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
    await page.getByRole('button', { name: 'Check every row' }).click();
    await fixSampleLocalErrors(page);
    await expect(page.getByTestId('summary-invalid')).toHaveText('0');
    await recordSpeech(page);
    await page.getByRole('button', { name: 'Upload…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
    await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'ERROR', {
      timeout: 60_000,
    });
    await expect(announcer(page)).toHaveText(
      /^sample-donations.*: the service refused 1 row; it needs repair\.$/,
    );
    await page.waitForTimeout(1500);
    expect(await timesSaid(page, /refused 1 row; it needs repair/)).toBe(1);

    // The file is named by its name; the service's id is a description, on hover.
    const name = page.getByTestId('intent-name').first();
    expect(await name.getAttribute('aria-label')).toBeNull();
    await expect(name).toContainText('sample-donations');
    const state = page.getByTestId('intent-state').first();
    expect(await state.getAttribute('aria-label')).toBeNull();
    await expect(state).toHaveText('Rejected');
    await expect(state).toHaveAttribute('title', 'Rejected (ERROR)');
    // The files' table scrolls in its own named box, which the keyboard can reach.
    const files = page.getByRole('region', { name: /^Files of the upload of sample-donations/ });
    await expect(files).toHaveAttribute('tabindex', '0');
    expect(await seriousViolations(page), 'axe on an upload that needs repair').toEqual([]);
  },
);

test('a fixed row that moves the usual amount: the warnings that rise are said with why, once the counts settle', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  await recordSpeech(page);
  const lines = [
    'Charity ID,Gift amount,Currency,Employee email',
    '840-563097462,10.00,USD,ana@acme.example',
    '840-446863710,10.00,USD,ben@acme.example',
    '250-127883502,10.00,USD,chloe@acme.example',
    '840-695196762,50.00,USD,dev@acme.example',
    '124-423823932,200.00,USD,emma@acme.example',
    '840-563097462,600.00,USD,finn@acme.example',
    '840-446863710,ten,USD,gia@acme.example',
  ];
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'usual.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page.getByTestId('summary-invalid')).toHaveText('1');
  // The usual USD amount is $30.00 while row 8 does not count: only row 7's $600.00 is flagged.
  await expect(page.getByTestId('summary-warnings')).toHaveText('1');

  await retype(page, 'ten', '11.00');
  const why = '1 more row is now at least 10 times the usual USD amount: it is $11.00 now that row 8 counts.';
  await expect(announcer(page)).toHaveText(`Row 8, Gift amount: fixed; no rows left with errors. ${why}`);
  await expect(page.getByTestId('summary-warnings')).toHaveText('2');
  await expect(page.getByTestId('usual-moved')).toHaveText(why);
  // Said once, with the counts it ends on: not a first count and then a second.
  expect(await timesSaid(page, /Row 8, Gift amount/)).toBe(1);
  // The row now flagged says why on its own warning too.
  await expect(grid(page).getByRole('gridcell', { name: '200.00', exact: true })).toHaveAttribute(
    'title',
    /usual USD amount \(\$11\.00\)\. Check for a missing decimal point\. This row is flagged since row 8 counts: the usual USD amount moved from \$30\.00 to \$11\.00\./,
  );
});
