import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

export const test = base.extend<{ bridge: BridgeProcess }>({
  // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  bridge: async ({}, use) => {
    const bridge = await startBridgeProcess(await newDataDir());
    await use(bridge);
    await bridge.stop();
  },
});

export { expect };

/** Opens the app past the welcome page, on the Offline sandbox. */
export async function openApp(page: Page, bridge: BridgeProcess, area = 'prepare'): Promise<void> {
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Donation Desk' })).toBeVisible();
  await page.evaluate(async () => {
    // Mark the first run as done through the app's own client, as the welcome buttons do.
    const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
    await fetch('/api/call/settings.save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
      body: JSON.stringify({ firstRunDone: true }),
    });
  });
  await page.goto(`${bridge.origin}/#/${area}`);
}

/** Serious and critical accessibility violations on the current page. */
export async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
