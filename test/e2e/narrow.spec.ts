import {
  test,
  fastTest,
  expect,
  openApp,
  openFixedSample,
  sendAndProcess,
  reconcileLater,
  seriousViolations,
} from './fixtures';
import type { Page } from '@playwright/test';

/** How far the page scrolls sideways (0 when it fits the window's width). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Tables in the view that are not inside a named region the keyboard can reach and scroll. */
const tablesOutsideRegions = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('main table'))
      .filter((table) => {
        const region = table.closest('[role=region][tabindex="0"]');
        const box = region as HTMLElement | null;
        return !region || !region.getAttribute('aria-label') || getComputedStyle(box!).overflowX !== 'auto';
      })
      .map((t) => t.getAttribute('aria-label') ?? '(a table without a name)'),
  );

/** Goes to an area through the drawer of a narrow window. */
async function area(page: Page, name: string) {
  await page.getByRole('button', { name: 'Areas' }).click();
  await page.getByRole('dialog', { name: 'Areas' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeFocused();
}

/** 320 CSS px (WCAG 1.4.10), and 1280×720 at 200% and 400% zoom. */
const NARROW = [
  { width: 320, height: 640 },
  { width: 640, height: 360 },
  { width: 320, height: 180 },
];

test('at 320 CSS pixels and at 200% and 400% zoom, Reconcile and an open workspace never scroll the page sideways', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'reconcile');
  await expect(page.getByRole('heading', { name: 'Reconcile', level: 1 })).toBeVisible();
  for (const size of NARROW) {
    await page.setViewportSize(size);
    await expect.poll(() => sideways(page), `Reconcile at ${size.width}×${size.height}`).toBe(0);
  }
  await area(page, 'Prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await expect.poll(() => sideways(page), 'the mapping step').toBe(0);
  await page.getByRole('button', { name: 'Check every row' }).click();
  const rows = page.getByRole('grid', { name: /Rows of/ });
  await expect(rows).toBeFocused();
  // The grid scrolls in its own box; the page does not.
  expect(await rows.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await sideways(page), 'the open workspace').toBe(0);
  await page.keyboard.press('End');
  expect(await rows.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  expect(await sideways(page)).toBe(0);
  expect(await seriousViolations(page), 'axe on the narrow workspace').toEqual([]);
});

fastTest(
  'at 320 CSS pixels the uploads, Reconcile, the month report and Audit scroll their tables in their own boxes',
  async ({ page, bridge }) => {
    test.setTimeout(180_000);
    await openApp(page, bridge, 'prepare');
    await openFixedSample(page);
    await sendAndProcess(page);
    await reconcileLater(page, bridge);
    await expect(page.getByTestId('status-bar-label').first()).toBeVisible({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Show report' }).click();
    await expect(page.getByTestId('report-reconciled')).toBeVisible({ timeout: 30_000 });

    // Per-currency bars keep their colours in forced colours (the fills would go otherwise).
    const segments = page
      .getByTestId(/^status-bar-/)
      .first()
      .locator('[role=img] > *');
    const fills = () => segments.evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
    const normal = await fills();
    expect(normal.length).toBeGreaterThan(0);
    await page.emulateMedia({ forcedColors: 'active' });
    expect(await fills()).toEqual(normal);
    const edge = await page
      .getByTestId(/^status-bar-/)
      .first()
      .locator('[role=img]')
      .evaluate((el) => getComputedStyle(el).borderTopStyle);
    expect(edge).toBe('solid');
    await page.emulateMedia({ forcedColors: 'none' });

    for (const size of NARROW.slice(0, 2)) {
      await page.setViewportSize(size);
      const where = `${size.width}×${size.height}`;
      await expect.poll(() => sideways(page), `Reconcile with the report at ${where}`).toBe(0);
      expect(await tablesOutsideRegions(page), `Reconcile at ${where}`).toEqual([]);
    }
    // A wide table's box scrolls from the keyboard: it takes focus, and the arrow keys move it.
    const report = page.getByRole('region', { name: 'Report table: control totals per upload' });
    await report.focus();
    await expect(report).toBeFocused();
    expect(await report.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => report.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    expect(await seriousViolations(page), 'axe on Reconcile and the month report at 640 px').toEqual([]);
    await page.setViewportSize(NARROW[0]!);
    expect(await seriousViolations(page), 'axe on Reconcile and the month report at 320 px').toEqual([]);

    for (const name of ['Uploads', 'Audit']) {
      await area(page, name);
      await expect(page.locator('main table').first()).toBeVisible();
      await expect.poll(() => sideways(page), `${name} at 320`).toBe(0);
      expect(await tablesOutsideRegions(page), name).toEqual([]);
      expect(await seriousViolations(page), `axe on ${name} at 320 px`).toEqual([]);
    }
  },
);
