import type { Locator, Page } from '@playwright/test';
import { test, expect, openApp, grid } from './fixtures';

/** How many of the grid's data rows lie wholly inside the window (below the app bar). */
async function rowsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const rows = [...document.querySelectorAll('[role="grid"] [role="row"]')].slice(1);
    return rows.filter((r) => {
      const box = r.getBoundingClientRect();
      return box.height > 0 && box.top >= bar && box.bottom <= window.innerHeight;
    }).length;
  });
}

async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  return !!box && box.y >= 64 && box.y + box.height <= height;
}

test('at 1280×720 a checked workspace shows ten rows, its figures, tools and the line under the grid at once', async ({
  page,
  bridge,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page.getByTestId('summary-rows')).toHaveText('39');
  await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(10);
  await expect.poll(() => inView(page, page.getByTestId('grid-status'))).toBe(true);
  // The toolbar sits on one line, with Upload… in view.
  const toolbar = page.getByRole('toolbar', { name: 'Grid tools' });
  expect((await toolbar.boundingBox())?.height).toBeLessThan(48);
  expect(await inView(page, page.getByRole('button', { name: 'Upload…' }))).toBe(true);
  expect(await inView(page, page.getByTestId('summary-invalid'))).toBe(true);
});

test('F8 brings the cell and the line explaining it into view, also far down the sheet', async ({
  page,
  bridge,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page.getByTestId('summary-invalid')).toHaveText('3');
  // Scroll the page back up, as a person reading the figures would, then go through the errors.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < 3; i++) {
    await grid(page).press('F8');
    const status = page.getByTestId('grid-status');
    await expect(status).not.toContainText('no problems');
    expect(await inView(page, status), `the explaining line after F8 number ${i + 1}`).toBe(true);
    const active = grid(page).locator('[aria-selected="true"]').first();
    expect(await inView(page, active), `the cell after F8 number ${i + 1}`).toBe(true);
  }
});
