import { test, expect } from './fixtures';

test('a page load asks for nothing that is missing: the app icon is served at /favicon.ico', async ({
  page,
  bridge,
}) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Donation Desk' })).toBeVisible();
  const icon = await page.request.get(`${bridge.origin}/favicon.ico`);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/x-icon');
  expect((await icon.body()).length).toBeGreaterThan(100);
  expect(missing).toEqual([]);
});

test('opened without the secret, the page says which address to open, for npm start and npm run web', async ({
  page,
  bridge,
}) => {
  await page.goto(bridge.origin);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('npm start');
  await expect(alert).toContainText('npm run web');
  await expect(alert).toContainText('#secret=');
});
