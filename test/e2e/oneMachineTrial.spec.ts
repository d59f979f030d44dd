import { expect, openApp, test } from './fixtures';
import type { BridgeProcess } from './bridgeProcess';

/*
 * Team mode tried on one machine: Custom pointed at the giving-service emulator running on this
 * computer (here the app's own Offline sandbox, an emulator on a loopback port like `npm run
 * emulator`). The program domain takes 127.0.0.1 with its port, a refusal names the field as the
 * page labels it, and the emulator's clock control is offered on Custom.
 */

async function emulatorAddresses(bridge: BridgeProcess): Promise<{ baseUrl: string; tokenUrl: string }> {
  const r = await fetch(`${bridge.origin}/api/call/app.info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: '{}',
  });
  return ((await r.json()) as { value: { environment: { baseUrl: string; tokenUrl: string } } }).value
    .environment;
}

test('Custom on the emulator on this computer: 127.0.0.1 and its port are accepted, and the clock is offered', async ({
  page,
  bridge,
}) => {
  const { baseUrl, tokenUrl } = await emulatorAddresses(bridge);
  const port = new URL(baseUrl).port;
  await openApp(page, bridge, 'settings');
  await page.getByRole('radio', { name: /Custom/ }).check();
  await page.getByLabel('Service address').fill(baseUrl);
  await page.getByLabel('Token address').fill(tokenUrl);
  await page.getByLabel('Client id').fill('demo-client');
  await page.getByLabel('Client secret').fill('demo-secret');

  // A program domain that is not one is refused in plain words, naming the field as labelled here.
  await page.getByLabel('Program domain').fill('giving');
  await page.getByRole('button', { name: 'Save' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Program domain' });
  await expect(refusal).toContainText('Program domain: Enter a domain such as giving.example.com');
  await expect(refusal).not.toContainText('remote.addresses');

  await page.getByLabel('Program domain').fill(`127.0.0.1:${port}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'saved' })).toBeVisible();
  await expect(page.getByTestId('environment-badge')).toContainText('Custom');

  const clock = page.getByRole('region', { name: 'Emulator clock (the service on this computer)' });
  await expect(clock).toBeVisible();
  await expect(clock.getByTestId('sandbox-now')).toBeVisible();
  await clock
    .getByRole('button', { name: /^Move forward/ })
    .first()
    .click();
  await expect(clock.getByRole('status')).toContainText('The sandbox clock moved forward');
});
