import { test, expect, openApp, seriousViolations } from './fixtures';
import type { Page } from '@playwright/test';

/** How far the page scrolls sideways (0 when it fits the window's width). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('at 200% zoom on a 1280×720 screen the side bar is a drawer that keeps and gives back focus', async ({
  page,
  bridge,
}) => {
  // 1280×720 at 200% zoom is 640×360 CSS pixels.
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, bridge, 'prepare');
  await expect(page.getByRole('heading', { name: 'Prepare', level: 1 })).toBeVisible();
  // The drawer is a modal dialog of the areas; the side bar itself is gone.
  await expect(page.getByRole('navigation', { name: 'Areas' })).toBeHidden();
  const nav = page.getByRole('dialog', { name: 'Areas' });
  const menu = page.getByRole('button', { name: 'Areas' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Prepare' })).toHaveAttribute('aria-current', 'page');
  // Focus is inside the drawer; Escape closes it and gives focus back to the menu button.
  await expect.poll(() => nav.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();
  // Every area can be reached, the last one too (the drawer scrolls).
  await page.keyboard.press('Enter');
  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(nav).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeFocused();
  expect(await seriousViolations(page), 'axe with the drawer layout').toEqual([]);
});

test('at 320 CSS pixels the areas without wide tables never scroll sideways', async ({ page, bridge }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openApp(page, bridge, 'prepare');
  for (const area of ['Prepare', 'Uploads', 'Search', 'Locations', 'Audit', 'Settings']) {
    await page.getByRole('button', { name: 'Areas' }).click();
    await page.getByRole('dialog', { name: 'Areas' }).getByRole('link', { name: area }).click();
    await expect(page.getByRole('heading', { name: area, level: 1 })).toBeVisible();
    expect(await sideways(page), `${area} scrolls sideways`).toBe(0);
  }
});

test('each move to another area names it in the title and puts focus on its heading', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  await expect(page).toHaveTitle('Prepare — Donation Desk');
  const nav = page.getByRole('navigation', { name: 'Areas' });
  for (const name of ['Uploads', 'Reconcile', 'Search', 'Audit', 'Settings']) {
    await nav.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeFocused();
    await expect(page).toHaveTitle(`${name} — Donation Desk`);
  }
  // With a workspace open, the title names it too.
  await nav.getByRole('link', { name: 'Prepare' }).click();
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page).toHaveTitle(/^Prepare — sample-donations.* — Donation Desk$/);
  // By keyboard too: Enter on an area's link, then the next Tab goes on from the new view's top.
  await nav.getByRole('link', { name: 'Locations' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Locations', level: 1 })).toBeFocused();
  await page.keyboard.press('Tab');
  const inMain = await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement));
  expect(inMain).toBe(true);
});

test('a control focused from the keyboard shows a ring, filled buttons too, and in forced colours', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  const open = page.getByRole('button', { name: /Open a spreadsheet/ });
  await expect(open).toBeVisible();
  // Reach the filled button with the keyboard, as a person would.
  await page.getByRole('heading', { name: 'Prepare', level: 1 }).focus();
  for (let i = 0; i < 10; i++) {
    if (await open.evaluate((el) => el === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(open).toBeFocused();
  const ring = () =>
    open.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
  expect(await ring()).toEqual({ style: 'solid', width: 3 });
  await page.emulateMedia({ forcedColors: 'active' });
  expect(await ring()).toEqual({ style: 'solid', width: 3 });
  // Its edge stays when forced colours take its fill away.
  const border = await open.evaluate((el) => getComputedStyle(el).borderTopStyle);
  expect(border).toBe('solid');
});

test('the current area is marked by more than a tint, in forced colours too', async ({ page, bridge }) => {
  await openApp(page, bridge, 'uploads');
  const nav = page.getByRole('navigation', { name: 'Areas' });
  const edge = (name: string) =>
    nav.getByRole('link', { name }).evaluate((el) => {
      const style = getComputedStyle(el);
      return { width: style.borderLeftWidth, color: style.borderLeftColor, weight: style.fontWeight };
    });
  for (const forcedColors of ['none', 'active'] as const) {
    await page.emulateMedia({ forcedColors });
    const current = await edge('Uploads');
    const other = await edge('Reconcile');
    expect(current.width, forcedColors).toBe('4px');
    expect(current.color, forcedColors).not.toBe(other.color);
    expect(current.color, forcedColors).not.toBe('rgba(0, 0, 0, 0)');
  }
});

test('with reduced motion asked for, nothing animates', async ({ page, bridge }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openApp(page, bridge, 'prepare');
  const link = page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Uploads' });
  const duration = await link.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
  expect(duration).toBeLessThan(0.001);
});

test('after Check every row the grid has focus, so F8 goes to the first problem at once', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  const rows = page.getByRole('grid', { name: /Rows of/ });
  await expect(rows).toBeFocused();
  // No click first: the keyboard works where the person is about to work.
  await page.keyboard.press('F8');
  await expect(page.getByTestId('grid-status')).not.toContainText('no problems');
});

test('at 200% zoom the grid still shows eight rows or more; the page scrolls instead', async ({
  page,
  bridge,
}) => {
  await page.setViewportSize({ width: 640, height: 360 });
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  const rows = page.getByRole('grid', { name: /Rows of/ });
  await expect(rows).toBeFocused();
  const height = await rows.evaluate((el) => el.getBoundingClientRect().height);
  // Eight rows of 32 px under the two-line header.
  expect(height).toBeGreaterThanOrEqual(56 + 8 * 32);
  // Arrowing down keeps the active cell whole inside the grid's box, below its two-line header.
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowDown');
  const inside = await rows.evaluate((el) => {
    const active = document.getElementById(el.getAttribute('aria-activedescendant') ?? '');
    if (!active) return null;
    const box = el.getBoundingClientRect();
    const cell = active.getBoundingClientRect();
    return cell.top >= box.top && cell.bottom <= box.bottom + 1;
  });
  expect(inside).toBe(true);
});

test('every area’s code is loaded while the window is idle, so a first visit does not wait for it', async ({
  page,
  bridge,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await openApp(page, bridge, 'settings');
  // Without opening any of them.
  for (const area of [
    'PreparePage',
    'ReconcilePage',
    'UploadsPage',
    'SearchPage',
    'LocationsPage',
    'AuditPage',
  ])
    await expect
      .poll(() => scripts.some((path) => path.includes(`/${area}-`)), { timeout: 15_000, message: area })
      .toBe(true);
  const before = scripts.length;
  await page.getByRole('link', { name: 'Reconcile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reconcile' })).toBeVisible();
  expect(scripts.slice(before).filter((path) => path.includes('/ReconcilePage-'))).toEqual([]);
});

test('an area whose code is slow to come keeps the area shown and a bar says it is opening', async ({
  page,
  bridge,
}) => {
  // Audit's code held back, as on a slow, busy computer before the areas' code is loaded.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/AuditPage-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await openApp(page, bridge, 'settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.getByRole('link', { name: 'Audit' }).click();
  const bar = page.getByRole('progressbar', { name: 'Opening Audit' });
  await expect(bar).toBeVisible();
  // No spinner in place of the page: Settings stays as it was until Audit can be drawn.
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  await expect(bar).toBeHidden();
});
