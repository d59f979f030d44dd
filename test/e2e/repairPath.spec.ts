import type { Page } from '@playwright/test';
import {
  fastTest,
  test,
  expect,
  openApp,
  grid,
  serviceFaults,
  donationsAtService,
  seriousViolations,
} from './fixtures';

async function importCsv(page: Page, name: string, lines: string[]) {
  await page
    .getByTestId('file-input')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(grid(page)).toBeVisible();
}

const workspaceRow = (page: Page, name: string) =>
  page.getByTestId('workspace-row').filter({ has: page.getByRole('button', { name, exact: true }) });

fastTest(
  'a partial extraction: states in the list, the problems on their cells, F8 on them, the resend states what it sends',
  async ({ page, bridge }) => {
    await openApp(page, bridge);
    // The service creates the first two donations of the file, then stops.
    await serviceFaults(bridge, { partialExtractionFailure: { afterDonations: 2 } });
    await importCsv(page, 'partial.csv', [
      'Charity ID,Gift amount,Currency,Employee email',
      '840-563097462,10.00,USD,ana@acme.example',
      '840-446863710,20.00,USD,ben@acme.example',
      '840-563097462,30.00,USD,chloe@acme.example',
      '840-446863710,100.00,EUR,dan@acme.example',
    ]);
    await expect(page.getByTestId('summary-invalid')).toHaveText('0');
    await expect(page.getByTestId('workspace-standing')).toHaveText('Not uploaded');

    await page.getByRole('button', { name: 'Upload…' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload to the giving service' });
    await expect(upload.getByTestId('upload-summary')).toContainText('$60.00 and €100.00 in 4 donations');
    await upload.getByRole('button', { name: 'Send' }).click();

    // Uploads: the bulk's status in plain words, the code kept in a tooltip.
    const state = page.getByTestId('intent-state').first();
    await expect(state).toHaveText('Rejected', { timeout: 60_000 });
    await expect(state).toHaveAttribute('data-status', 'ERROR');
    await expect(page.getByTestId('upload-totals').first()).toHaveText(
      '4 rows: $60.00 and €100.00 in 4 donations',
    );
    // What happened, in the app's words and counts ("1 were created" is the service's own text).
    await expect(page.getByTestId('intent-error').first()).toHaveText(
      'The service stopped part-way through the file. 2 donations were created; 2 rows are still to send.',
    );
    // The code stays at hand: in the status's tooltip, which describes it; the name is the word seen.
    expect(await state.getAttribute('aria-label')).toBeNull();
    await expect(state).toHaveAttribute('title', 'Rejected (ERROR)');
    await state.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Rejected (ERROR)');

    // Prepare's list says where the workspace stands, and offers the repair.
    await page.goto(`${bridge.origin}/#/prepare`);
    const listed = workspaceRow(page, 'partial');
    await expect(listed.getByTestId('workspace-standing')).toHaveText('Needs repair');
    await expect(listed).not.toContainText('Ready to upload');
    expect(await seriousViolations(page), 'axe on the list of workspaces').toEqual([]);
    await listed.getByRole('button', { name: 'Fix the rows' }).click();

    await expect(page.getByTestId('repair-note')).toContainText(
      '2 problems in 2 rows are marked on their cells',
    );
    await expect(page.getByTestId('workspace-standing')).toHaveText('Needs repair');
    // Each problem is about a whole donation: it sits on the row's recipient cell.
    const marked = grid(page).locator('[role=gridcell][data-state="error"]');
    await expect(marked).toHaveCount(2);
    await expect(marked.first()).toHaveAttribute('title', /refused this donation as a whole/);

    // F8 goes to each, and the line under the grid says what the problem is.
    await grid(page).getByRole('gridcell', { name: 'ana@acme.example' }).click();
    await page.keyboard.press('F8');
    await expect(page.getByTestId('grid-status')).toContainText(
      'Charity ID, row 4: Error: The service refused',
    );
    await page.keyboard.press('F8');
    await expect(page.getByTestId('grid-status')).toContainText(
      'Charity ID, row 5: Error: The service refused',
    );
    await expect(page.getByTestId('grid-status')).not.toContainText('no problems');
    expect(await seriousViolations(page), 'axe on the workspace under repair').toEqual([]);

    // The resend states the amounts actually sent: the two rows without a donation.
    await serviceFaults(bridge, { partialExtractionFailure: null });
    await page.getByRole('button', { name: 'Send corrected rows' }).click();
    const resend = page.getByRole('dialog', { name: 'Send the corrected rows' });
    await expect(resend.getByTestId('upload-summary')).toContainText('$30.00 and €100.00 in 2 donations');
    await resend.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByTestId('upload-state').first()).toHaveText('Processed', { timeout: 60_000 });
    await expect(page.getByTestId('upload-totals').first()).toContainText(
      '2 rows: $30.00 and €100.00 in 2 donations',
    );
    expect(await donationsAtService(bridge)).toBe(4);
    // The rejected upload, listed below its correction, needs nothing more.
    await expect(page.getByTestId('upload-state').nth(1)).toHaveText('Corrected');

    await page.goto(`${bridge.origin}/#/prepare`);
    await expect(workspaceRow(page, 'partial').getByTestId('workspace-standing')).toHaveText('Corrected');
  },
);

fastTest('an uploaded workspace is listed as uploaded, not as ready to upload', async ({ page, bridge }) => {
  await openApp(page, bridge);
  await importCsv(page, 'november.csv', [
    'Charity ID,Gift amount,Currency,Employee email',
    '840-563097462,25.00,USD,ana@acme.example',
  ]);
  // The list shows the counts the workspace reported once its rows were checked.
  await page.waitForResponse('**/api/call/workspace.summary');
  await page.getByRole('button', { name: 'All workspaces' }).click();
  const listed = workspaceRow(page, 'november');
  await expect(listed.getByTestId('workspace-standing')).toHaveText('Not uploaded');
  await expect(listed).toContainText('Every row is ready to upload.');
  // A CSV has no sheet: the workspace and its file are named by the file alone.
  await expect(listed.getByRole('cell').nth(1)).toHaveText('november.csv');
  await listed.getByRole('button', { name: 'november', exact: true }).click();
  await expect(page.getByText('november.csv · headers in row 1')).toBeVisible();
  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(dialog.getByTestId('upload-summary')).toHaveText('1 of 1 row is ready: $25.00 in 1 donation.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('intent-state').first()).toHaveText('Processed', { timeout: 60_000 });
  await page.goto(`${bridge.origin}/#/prepare`);
  await expect(workspaceRow(page, 'november').getByTestId('workspace-standing')).toHaveText('Uploaded');
  await expect(workspaceRow(page, 'november')).toContainText('processed by the service');
  await workspaceRow(page, 'november')
    .getByRole('link', { name: /See the upload of/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
});

test('F8 stops on warnings once no error is left', async ({ page, bridge }) => {
  await openApp(page, bridge);
  await importCsv(page, 'spaces.csv', [
    'Charity ID,Gift amount,Currency,Employee email',
    '840-563097462,25.00,USD,ana@acme.example',
    '840-446863710,15.00,USD,"  ben@acme.example"',
  ]);
  await expect(page.getByTestId('summary-invalid')).toHaveText('0');
  await grid(page).getByRole('gridcell', { name: '840-563097462' }).click();
  await page.keyboard.press('F8');
  await expect(page.getByTestId('grid-status')).toContainText('row 3: Warning: Spaces around');
  await expect(page.getByText('No errors left: F8 now goes through the warnings.')).toBeVisible();
});

test('Ctrl+Z and Ctrl+Y undo and redo an edit in the locations import grid', async ({ page, bridge }) => {
  await openApp(page, bridge, 'locations');
  await page.getByRole('button', { name: 'Import from a spreadsheet' }).click();
  await page.getByTestId('file-input').setInputFiles({
    name: 'stores.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      [
        'Store,Store no,Address,Country',
        'Lyon store,LY-1,1 rue de la République,FR',
        'Oslo store,OS-1,1 Karl Johans gate,NO',
      ].join('\n'),
    ),
  });
  // "Store no" is matched to Reference id from its header.
  await expect(page.getByLabel('Field for “Store no”')).toHaveText('Reference id');
  await page.getByRole('button', { name: 'Use this mapping' }).click();
  await expect(page.getByTestId('import-summary')).toHaveText('2 rows ready to send; 0 with problems.');

  const cells = page.getByRole('grid', { name: /Locations in/ }).getByRole('gridcell');
  await cells.filter({ hasText: 'Lyon store' }).dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit Store, row 2/ });
  await editor.fill('Lyon central');
  await editor.press('Enter');
  await expect(cells.filter({ hasText: 'Lyon central' })).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(cells.filter({ hasText: 'Lyon store' })).toHaveCount(1);
  await expect(cells.filter({ hasText: 'Lyon central' })).toHaveCount(0);
  await page.keyboard.press('Control+y');
  await expect(cells.filter({ hasText: 'Lyon central' })).toHaveCount(1);
});

test('autocorrect says what it searched for', async ({ page, bridge }) => {
  await openApp(page, bridge, 'search');
  await page.getByLabel('Topic').fill('libary');
  await page.getByLabel('Autocorrect').check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('autocorrect-note')).toContainText(
    'Autocorrect searched for “library” (“library” instead of “libary”)',
  );
  await expect(page.getByTestId('search-summary')).toHaveText(/^\d+ giving opportunit(y|ies) for “libary”/);
});
