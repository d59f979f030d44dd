import { test, expect, openApp, seriousViolations } from './fixtures';

test('search by topic, read a result, open its donation page and use a cause as recipient', async ({
  page,
  bridge,
}) => {
  // In browser mode main answers {opened: false} and the page opens the address itself: record it.
  await page.addInitScript(() => {
    const opened: string[] = [];
    (window as unknown as { __opened: string[] }).__opened = opened;
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return null;
    }) as typeof window.open;
  });
  await openApp(page, bridge, 'search');
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();

  // A misspelling finds nothing without autocorrect, and says what to try.
  await page.getByLabel('Topic').fill('libary');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No giving opportunities match “libary”')).toBeVisible();
  await page.getByLabel('Autocorrect').check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const cards = page.getByTestId('search-result');
  await expect(cards.first()).toBeVisible();
  // Snippets: the matched word is emphasised with <em>, and only that.
  await expect(cards.first().getByTestId('snippets').locator('em').first()).toHaveText(/library/i);

  // Out-of-range coordinates are refused before searching.
  await page.getByLabel('Near (latitude,longitude)').fill('95,10');
  await expect(page.getByText('Type latitude,longitude')).toBeVisible();
  await page.getByLabel('Near (latitude,longitude)').fill('-33.87,151.21');

  await page.getByLabel('Topic').fill('food');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText(/giving opportunit(y|ies) for “food”/)).toBeVisible();
  const first = cards.first();
  // The image comes from main as a data: URL (the page's CSP allows no other).
  await expect(first.locator('img')).toHaveAttribute('src', /^data:image\//);
  expect(await seriousViolations(page), 'axe on results').toEqual([]);

  const title = (await first.getByRole('heading', { level: 2 }).textContent()) ?? '';
  await first.getByRole('button', { name: /^Open donation page/ }).click();
  await expect(page.getByText(`Opened the donation page for “${title}”.`)).toBeVisible();
  const opened = await page.evaluate(() => (window as unknown as { __opened: string[] }).__opened);
  expect(opened).toHaveLength(1);
  // The Offline sandbox's program pages: {program}/<locale>/campaigns/donate/<id>, on loopback.
  expect(opened[0]).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/program\/[a-z]{2}(-[A-Z]{2})?\/campaigns\/donate\/\d+$/,
  );
  const page2 = await page.request.get(opened[0]!);
  expect(page2.status()).toBe(200);

  await first
    .getByRole('button', { name: /^Use as recipient/ })
    .first()
    .click();
  await expect(page.getByText(/is ready: the donation form will offer it/)).toBeVisible();
  const chosen = await page.evaluate(() => sessionStorage.getItem('donation-desk.recipient'));
  expect(JSON.parse(chosen ?? '{}')).toMatchObject({ recipientId: expect.any(String) });
});

test('a failed search says so plainly', async ({ page, bridge }) => {
  await openApp(page, bridge, 'search');
  // Point the running app at an address where nothing answers, for this search only.
  await page.evaluate(async () => {
    const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
    await fetch('/api/call/settings.save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
      body: JSON.stringify({
        environment: 'custom',
        remote: {
          id: 'custom',
          addresses: {
            baseUrl: 'http://127.0.0.1:9/api',
            tokenUrl: 'http://127.0.0.1:9/token',
            programDomain: 'giving.example.org',
          },
          clientId: 'x',
          clientSecret: 'y',
        },
      }),
    });
  });
  await page.getByLabel('Topic').fill('food');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The search did not work.');
});

test('a slow search shows progress and says it is slow, then shows the results', async ({ page, bridge }) => {
  await openApp(page, bridge, 'search');
  const info = await page.request.post(`${bridge.origin}/api/call/app.info`, {
    data: {},
    headers: { 'x-desk-secret': bridge.secret },
  });
  const { baseUrl } = ((await info.json()) as { value: { environment: { baseUrl: string } } }).value
    .environment;
  // The Offline sandbox's own control: every service answer takes 4.5 seconds.
  await page.request.post(`${baseUrl}/_emulator/faults`, { data: { latencyMs: 4500 } });
  await page.getByLabel('Topic').fill('water');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Searching' })).toBeVisible();
  await expect(page.getByText('Still searching: the service is slow to answer.')).toBeVisible();
  await expect(page.getByTestId('search-result').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('progressbar', { name: 'Searching' })).toHaveCount(0);
});
