import { test, expect, openApp, seriousViolations } from './fixtures';
import { startBridgeProcess } from './bridgeProcess';

const areaNames = ['Prepare', 'Uploads', 'Reconcile', 'Search', 'Locations', 'Audit', 'Settings'];

test('a newcomer lands on the welcome page and can start on the Offline sandbox', async ({
  page,
  bridge,
}) => {
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Donation Desk' })).toBeVisible();
  await expect(page.getByTestId('environment-badge')).toHaveText('Offline sandbox');
  // The secret is taken out of the address bar once read.
  expect(page.url()).not.toContain(bridge.secret);
  await page.getByRole('button', { name: 'Try it with the sample spreadsheet' }).click();
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
});

test('every area opens, by mouse and by keyboard, with no serious accessibility violation', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  const nav = page.getByRole('navigation', { name: 'Areas' });
  for (const name of areaNames) {
    await nav.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(nav.getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('environment-badge')).toBeVisible();
    expect(await seriousViolations(page), `axe in ${name}`).toEqual([]);
  }
  // Keyboard: the skip link comes first, then the areas are reachable with Tab and Enter.
  await page.goto(`${bridge.origin}/#/prepare`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await nav
      .getByRole('link', { name: 'Settings' })
      .evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

test('settings save, survive a restart of the bridge, and the secret never reaches the page', async ({
  page,
  bridge,
}) => {
  const secret = 'e2e-client-secret-4711';
  await openApp(page, bridge, 'settings');
  await page.getByRole('radio', { name: /Custom/ }).check();
  await page.getByLabel('Service address').fill('https://api.giving.example.org');
  await page.getByLabel('Token address').fill('https://auth.giving.example.org/oauth2/token');
  await page.getByLabel('Program domain').fill('giving.example.org');
  await page.getByLabel('Client id').fill('acme-finance');
  await page.getByLabel('Client secret').fill(secret);

  const bodies: string[] = [];
  page.on('response', async (response) => {
    if (response.url().includes('/api/')) bodies.push(await response.text().catch(() => ''));
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(page.getByTestId('environment-badge')).toHaveText('Custom');
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  expect(await page.content()).not.toContain(secret);

  // Test connection: the custom address does not exist here, so the answer is a clear reason.
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toContainText(/client secret|token address|Could not reach/);

  // Restart the bridge on the same data folder: the settings are still there.
  await bridge.stop();
  const again = await startBridgeProcess(bridge.dataDir);
  try {
    await page.goto(again.url);
    // The app lands on Prepare once it has read the settings; only then is Settings opened, so that
    // landing cannot come after it.
    await expect(page.getByRole('heading', { level: 1, name: 'Prepare' })).toBeVisible();
    await page.goto(`${again.origin}/#/settings`);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByTestId('environment-badge')).toHaveText('Custom');
    await expect(page.getByLabel('Service address')).toHaveValue('https://api.giving.example.org');
    await expect(page.getByLabel('Client id')).toHaveValue('acme-finance');
    expect(await page.content()).not.toContain(secret);
  } finally {
    await again.stop();
  }
  for (const body of bodies) expect(body).not.toContain(secret);
});

test('Test connection on the Offline sandbox obtains a token', async ({ page, bridge }) => {
  await openApp(page, bridge, 'settings');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toContainText(
    'Connected to Offline sandbox',
  );
});

test('the bridge refuses calls without the secret or from another origin', async ({ page, bridge }) => {
  const noSecret = await page.request.post(`${bridge.origin}/api/call/settings.get`, { data: {} });
  expect(noSecret.status()).toBe(401);
  const otherOrigin = await page.request.post(`${bridge.origin}/api/call/settings.get`, {
    data: {},
    headers: { 'x-desk-secret': bridge.secret, origin: 'https://attacker.example' },
  });
  expect(otherOrigin.status()).toBe(403);
  // A page on another origin cannot read the bridge either.
  await page.goto('about:blank');
  const fromElsewhere = await page.evaluate(async (origin) => {
    try {
      const r = await fetch(`${origin}/api/call/settings.get`, { method: 'POST', body: '{}' });
      return r.status;
    } catch {
      return 'blocked';
    }
  }, bridge.origin);
  expect(fromElsewhere === 'blocked' || fromElsewhere === 401 || fromElsewhere === 403).toBe(true);
});
