import type { Locator, Page } from '@playwright/test';
import {
  test,
  fastTest,
  expect,
  openApp,
  grid,
  openFixedSample,
  sendAndProcess,
  reconcileLater,
} from './fixtures';
import type { BridgeProcess } from './bridgeProcess';

/** How many of the grid's data rows lie wholly inside the window (below the app bar). */
async function rowsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    const rows = Array.from(document.querySelectorAll('[role="grid"] [role="row"]')).slice(1);
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

/** The sample opened and checked in a window of `size`. */
async function openCheckedSample(
  page: Page,
  bridge: BridgeProcess,
  size: { width: number; height: number },
): Promise<void> {
  await page.setViewportSize(size);
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
}

test('at 1280×720 a checked workspace shows ten rows, its figures, tools and the line under the grid at once', async ({
  page,
  bridge,
}) => {
  await openCheckedSample(page, bridge, { width: 1280, height: 720 });
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
  await openCheckedSample(page, bridge, { width: 1440, height: 900 });
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

fastTest(
  'at 1280×720 Reconcile shows a dozen donations, none wrapping onto a third line',
  async ({ page, bridge }) => {
    fastTest.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 720 });
    await openApp(page, bridge, 'prepare');
    await openFixedSample(page);
    await sendAndProcess(page);
    await reconcileLater(page, bridge);
    const rows = page.getByTestId('donation-row');
    await expect(rows.first()).toBeVisible();
    // Scroll so the table's first donation sits just under the app bar, as a person reading it would.
    await rows.first().evaluate((row) => {
      const bar = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
      window.scrollBy(0, row.getBoundingClientRect().top - bar);
    });
    const heights = await rows.evaluateAll((all) => all.map((r) => r.getBoundingClientRect().height));
    const lineHeight = await rows
      .first()
      .locator('td')
      .first()
      .evaluate((td) => parseFloat(getComputedStyle(td).lineHeight));
    for (const height of heights)
      expect(height, 'a donation on at most two lines').toBeLessThan(lineHeight * 3);
    const inView = await rows.evaluateAll(
      (all) => all.filter((r) => r.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    expect(inView).toBeGreaterThanOrEqual(12);
  },
);

fastTest(
  'at 1280×720 an upload’s file and its timeline take a few lines, each step on one line',
  async ({ page, bridge }) => {
    fastTest.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 720 });
    await openApp(page, bridge, 'prepare');
    await openFixedSample(page);
    await sendAndProcess(page);
    const steps = page
      .getByRole('list', { name: /^Timeline of / })
      .first()
      .getByRole('listitem');
    await expect(steps.first()).toBeVisible();
    const lineHeight = await steps.first().evaluate((li) => parseFloat(getComputedStyle(li).lineHeight));
    const heights = await steps.evaluateAll((all) => all.map((li) => li.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThanOrEqual(4);
    for (const height of heights) expect(height, 'a step on one line').toBeLessThan(lineHeight * 1.5);
    // The date is written once; later steps the same day give their time only.
    const texts = await steps.allTextContents();
    const year = String(new Date().getFullYear());
    expect(texts.filter((t) => t.includes(year)).length).toBe(1);
    // The file's row and its timeline together stay within a third of the window.
    const row = page.getByTestId('intent-row').first();
    const rowBox = await row.boundingBox();
    const lastStep = await steps.last().boundingBox();
    expect(rowBox && lastStep && lastStep.y + lastStep.height - rowBox.y).toBeLessThan(720 / 3);
  },
);

test('at 1280×720 the search fields show their whole labels', async ({ page, bridge }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openApp(page, bridge, 'search');
  const form = page.getByRole('search', { name: 'Giving opportunities' });
  await expect(form.getByLabel('Near (latitude,longitude)')).toBeVisible();
  const cut = await form
    .locator('label')
    .evaluateAll((labels) =>
      labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent ?? ''),
    );
  expect(cut, 'labels cut short').toEqual([]);
});
