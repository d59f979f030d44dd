import { test, expect, openApp, seriousViolations } from './fixtures';

const HEADERS = [
  'Name',
  'Reference ID',
  'Address',
  'City',
  'Country',
  'Latitude',
  'Longitude',
  'Tags',
  'Contact 1 first name',
  'Contact 1 last name',
  'Contact 1 email',
  'Contact 1 primary',
  'Contact 2 first name',
  'Contact 2 last name',
  'Contact 2 email',
  'Contact 2 primary',
];
const ROWS = [
  [
    'Denver store',
    'DEN-1',
    '1 Main St',
    'Denver',
    'US',
    '39.7392',
    '-104.9903',
    'Region=West; Tier=Gold',
    'Ann',
    'Ng',
    'ann.e2e@example.com',
    'yes',
    'Bo',
    'Ek',
    'bo.e2e@example.com',
    'no',
  ],
  [
    'Berlin store',
    'BER-1',
    '2 Hauptstrasse',
    'Berlin',
    'DE',
    '',
    '',
    'Region=Europe',
    'Cem',
    'Kaya',
    'cem.e2e@example.com',
    'yes',
    '',
    '',
    '',
    '',
  ],
  // The bad row: its contact's email has no domain.
  [
    'Paris store',
    'PAR-1',
    '3 Rue de Rivoli',
    'Paris',
    'FR',
    '',
    '',
    '',
    'Pierre',
    'Roux',
    'pierre.e2e@',
    'yes',
    '',
    '',
    '',
    '',
  ],
];
const csv = [HEADERS, ...ROWS]
  .map((r) => r.map((c) => (/[,;"]/.test(c) ? `"${c}"` : c)).join(','))
  .join('\n');

test('import a locations sheet with one bad row, fix it, resend; make a contact primary', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'locations');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Import from a spreadsheet' }).click();
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'stores.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  // Every column was matched from its header; the mapping is confirmed as it is.
  await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
  await expect(page.getByLabel('Field for “Contact 2 email”')).toHaveText('Contact 2 email');
  expect(await seriousViolations(page), 'axe on the mapping').toEqual([]);
  await page.getByRole('button', { name: 'Use this mapping' }).click();

  await expect(page.getByTestId('import-summary')).toHaveText('2 rows ready to send; 1 with problems.');
  const bad = page.locator('[role=gridcell][data-state="error"]');
  await expect(bad).toHaveCount(1);
  await expect(bad).toHaveAttribute('title', /not a valid address/);
  await page.getByRole('button', { name: 'Send 2 rows' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'All 2 rows were applied.' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Added' })).toHaveCount(2);

  // Fix the bad cell in the grid and send again: only that row goes.
  await bad.dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit Contact 1 email/ });
  await editor.fill('pierre.e2e@example.fr');
  await editor.press('Enter');
  await expect(page.getByTestId('import-summary')).toHaveText('1 row ready to send; 0 with problems.');
  await page.getByRole('button', { name: 'Send 1 row' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The row was applied.' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Added' })).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Nothing to send' })).toBeDisabled();
  expect(await seriousViolations(page), 'axe on the results').toEqual([]);

  // The register lists all three; open the Denver store.
  await page.getByRole('button', { name: 'Done' }).click();
  const register = page.getByRole('table', { name: 'Registered locations' });
  await expect(register.getByRole('row')).toHaveCount(4);
  await register.getByRole('button', { name: 'Open Denver store' }).click();
  await expect(page.getByRole('heading', { name: 'Denver store' })).toBeVisible();
  await expect(page.getByTestId('tag-row')).toHaveCount(2);

  const contacts = page.getByRole('table', { name: 'Contacts of this location' });
  const ann = contacts.getByRole('row').filter({ hasText: 'Ann Ng' });
  const bo = contacts.getByRole('row').filter({ hasText: 'Bo Ek' });
  await expect(ann.getByText('Primary')).toBeVisible();
  await contacts.getByRole('button', { name: 'Make primary: Bo Ek' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Bo Ek is now the primary contact.' }),
  ).toBeVisible();
  await expect(bo.getByText('Primary')).toBeVisible();
  await expect(ann.getByRole('cell', { name: 'No', exact: true })).toBeVisible();
  await expect(contacts.getByRole('button', { name: 'Make primary: Ann Ng' })).toBeVisible();

  // Edit a field (PATCH) and add a new tag.
  await page.getByLabel('Phone number').fill('+1 303 555 0199');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The location was saved.' })).toBeVisible();
  await page.getByLabel('New tag name').fill('Tier');
  await page.getByLabel('New tag value').fill('Platinum');
  await page.getByRole('button', { name: 'Create and add' }).click();
  await expect(page.getByTestId('tag-row')).toHaveCount(3);
  expect(await seriousViolations(page), 'axe on the detail view').toEqual([]);

  // Still there after a reload: the register lives in main.
  await page.reload();
  const reloaded = page.getByRole('table', { name: 'Registered locations' });
  await expect(reloaded.getByRole('row')).toHaveCount(4);

  // Removing is an explicit, confirmed choice.
  await reloaded.getByRole('button', { name: 'Open Berlin store' }).click();
  await page.getByRole('button', { name: 'Remove this location…' }).click();
  await page.getByRole('button', { name: 'Remove at the service' }).click();
  await expect(reloaded.getByRole('row')).toHaveCount(3);
  await expect(reloaded.getByText('Berlin store')).toHaveCount(0);
});

test('a row the service refuses is marked on its cell, fixed and sent again alone', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'locations');
  // Another system already holds reference id TAKEN-1 at the service (made here straight on the sandbox).
  const info = await page.request.post(`${bridge.origin}/api/call/app.info`, {
    data: {},
    headers: { 'x-desk-secret': bridge.secret },
  });
  const { baseUrl, tokenUrl } = (
    (await info.json()) as { value: { environment: { baseUrl: string; tokenUrl: string } } }
  ).value.environment;
  const token = await page.request.post(tokenUrl, {
    form: { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'demo-secret' },
  });
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  const made = await page.request.post(`${baseUrl}/locations/batch`, {
    headers: { authorization: `Bearer ${accessToken}` },
    data: {
      'atomic:operations': [
        {
          op: 'add',
          data: {
            type: 'location',
            attributes: {
              name: 'Elsewhere',
              referenceId: 'TAKEN-1',
              address: { addressLine: '1 X', country: 'US' },
            },
          },
        },
      ],
    },
  });
  expect(made.status()).toBe(200);

  await page.getByRole('button', { name: 'Import from a spreadsheet' }).click();
  const sheet = [
    'Name,Reference ID,Address,Country',
    'Oslo store,OSL-1,1 Karl Johans gate,NO',
    'Lima store,TAKEN-1,1 Jiron,PE',
  ].join('\n');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet) });
  await page.getByRole('button', { name: 'Use this mapping' }).click();
  await page.getByRole('button', { name: 'Send 2 rows' }).click();
  await expect(page.getByRole('alert')).toContainText('1 row was applied; 1 needs fixing.');
  const refused = page.locator('[role=gridcell][data-state="error"]');
  await expect(refused).toHaveCount(1);
  // The service's error pointed at the operation's referenceId: the Reference ID cell of the Lima row.
  await expect(refused).toHaveAttribute('data-col', '1');
  await expect(page.getByRole('gridcell', { name: /^Refused:/ })).toHaveCount(1);

  await refused.dblclick();
  const editor = page.getByRole('textbox', { name: /^Edit Reference ID/ });
  await editor.fill('LIM-1');
  await editor.press('Enter');
  await page.getByRole('button', { name: 'Send 1 row' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The row was applied.' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Added' })).toHaveCount(2);
});

test('a column the locations import does not know reads Not used, not an empty box', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'locations');
  await page.getByRole('button', { name: 'Import from a spreadsheet' }).click();
  await page.getByTestId('file-input').setInputFiles({
    name: 'stores.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'Name,Reference ID,Address,Country,Opening hours\nDenver store,DEN-1,1 Main St,US,9-5\n',
    ),
  });
  await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
  await expect(page.getByLabel('Field for “Opening hours”')).toHaveText('Not used');
});
