import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, openApp, test } from './fixtures';
import type { BridgeProcess } from './bridgeProcess';

/** The Offline sandbox's own addresses, which a real-looking connection can be tested against. */
async function sandboxAddresses(bridge: BridgeProcess): Promise<{ baseUrl: string; tokenUrl: string }> {
  const r = await fetch(`${bridge.origin}/api/call/app.info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: '{}',
  });
  return ((await r.json()) as { value: { environment: { baseUrl: string; tokenUrl: string } } }).value
    .environment;
}

const settingsFile = (bridge: BridgeProcess) =>
  readFile(join(bridge.dataDir, 'settings.json'), 'utf8').catch(() => '');

test('Test connection never changes or saves the environment in force; only Save does', async ({
  page,
  bridge,
}) => {
  const { baseUrl, tokenUrl } = await sandboxAddresses(bridge);
  await openApp(page, bridge, 'settings');
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
  const before = await settingsFile(bridge);

  await page.getByRole('radio', { name: /Production/ }).check();
  await page.getByLabel('Service address').fill(baseUrl);
  await page.getByLabel('Token address').fill(tokenUrl);
  await page.getByLabel('Client id').fill('demo-client');
  await page.getByLabel('Client secret').fill('demo-secret');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toContainText(
    'Connected to Production',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toContainText(
    'Nothing was changed: press Save to work with Production',
  );
  // Still practising: the badge, the saved settings and the file on disk say so.
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
  expect(await settingsFile(bridge)).toBe(before);
  expect(await settingsFile(bridge)).not.toContain('production"');

  // Back to the Offline sandbox without Save, and after a reload: still the Offline sandbox.
  await page.getByRole('radio', { name: /Offline sandbox/ }).check();
  await page.reload();
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
  await expect(page.getByRole('radio', { name: /Offline sandbox/ })).toBeChecked();

  // A wrong secret fails the test and changes nothing either.
  await page.getByRole('radio', { name: /Production/ }).check();
  await page.getByLabel('Service address').fill(baseUrl);
  await page.getByLabel('Token address').fill(tokenUrl);
  await page.getByLabel('Client id').fill('demo-client');
  await page.getByLabel('Client secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');

  // Save is the one way to switch.
  await page.getByLabel('Client secret').fill('demo-secret');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(page.getByTestId('environment-badge')).toHaveText('Production: real donations');
  expect(await settingsFile(bridge)).toContain('"environment": "production"');
});

test('Save refuses an environment that cannot work, says what is missing, and changes nothing', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'settings');
  const before = await settingsFile(bridge);
  await page.getByRole('radio', { name: /Production/ }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Production cannot be used yet: enter its service address, token address, client id, client secret first',
  );
  await expect(page.getByText('Settings saved.')).toHaveCount(0);
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
  expect(await settingsFile(bridge)).toBe(before);
  // Part of it is not enough either.
  await page.getByLabel('Service address').fill('https://api.giving.example.org');
  await page.getByLabel('Token address').fill('https://auth.giving.example.org/oauth2/token');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toContainText('enter its client id, client secret first');
  await page.reload();
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
});

test('the Offline sandbox’s clock speed is shown, and its clock moves forward from Settings only while it is in force', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'settings');
  // The bridge's Offline sandbox runs at the app's speed: 60 virtual seconds per real second.
  await page.getByTestId('environment-badge').hover();
  await expect(page.getByRole('tooltip')).toContainText(
    'Its clock runs 60 times faster than real time: one real minute is 1 hour there',
  );
  const panel = page.getByRole('region', { name: 'Offline sandbox clock' });
  await expect(panel.getByTestId('sandbox-speed')).toContainText('60 times faster than real time');

  const clock = async () =>
    Date.parse(
      (
        (await (
          await fetch(`${bridge.origin}/api/call/sandbox.clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
            body: '{}',
          })
        ).json()) as { value: { now: string } }
      ).value.now,
    );
  const before = await clock();
  await panel.getByRole('button', { name: 'Move forward 10 hours' }).click();
  await expect(panel.getByRole('status')).toContainText('The sandbox clock moved forward 10 hours');
  expect((await clock()) - before).toBeGreaterThanOrEqual(10 * 3600_000);

  // With another environment saved, the control is gone (and main refuses the move).
  await page.getByRole('radio', { name: /Custom/ }).check();
  await page.getByLabel('Service address').fill('https://api.giving.example.org');
  await page.getByLabel('Token address').fill('https://auth.giving.example.org/oauth2/token');
  await page.getByLabel('Client id').fill('acme-finance');
  await page.getByLabel('Client secret').fill('acme-secret');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('environment-badge')).toHaveText('Custom');
  await expect(page.getByRole('region', { name: 'Offline sandbox clock' })).toHaveCount(0);
  const refused = await fetch(`${bridge.origin}/api/call/sandbox.advanceClock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: JSON.stringify({ seconds: 3600 }),
  });
  expect(((await refused.json()) as { ok: boolean; error: { code: string } }).error.code).toBe('NOT_OFFLINE');
});

test('a line meant to be secondary is drawn in the secondary text colour, apart from the words it explains', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'settings');
  const colourOf = (text: string) =>
    page
      .locator('#main')
      .getByText(text, { exact: true })
      .evaluate((el) => getComputedStyle(el).color);
  const label = await colourOf('Offline sandbox');
  const help = await colourOf(
    'A practice copy of the giving service on this computer. Nothing leaves your machine.',
  );
  expect(label).toBe('rgba(0, 0, 0, 0.87)');
  expect(help).toBe('rgba(0, 0, 0, 0.6)');
});
