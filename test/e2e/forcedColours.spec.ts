import { test, expect, openApp, grid, retype, seriousViolations } from './fixtures';
import type { Locator } from '@playwright/test';

/** What marks a cell: its fill, its outline, and the mark at its end. */
const look = (cell: Locator) =>
  cell.evaluate((el) => {
    const style = getComputedStyle(el);
    return {
      fill: style.backgroundColor,
      edge: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      mark: getComputedStyle(el, '::after').content,
    };
  });

test('error and warning cells are marked apart from normal cells and from each other, by more than hue and in forced colours', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'prepare');
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(page.getByTestId('summary-invalid')).toHaveText('3');
  // Spaces around an e-mail are a warning.
  await retype(page, 'george.chen@', '  george.chen@acme.example');
  const error = grid(page).locator('[role=gridcell][data-state="error"]').first();
  const warning = grid(page).locator('[role=gridcell][data-state="warning"]').first();
  await expect(error).toBeVisible();
  await expect(warning).toBeVisible();
  // A plain cell, not the active one.
  const plain = grid(page).locator('[role=gridcell]:not([data-state]):not(.dg-active)').nth(2);

  // Without forced colours: a cross on an error, a triangle on a warning, nothing on a plain cell;
  // the words say it too.
  const [e, w, p] = [await look(error), await look(warning), await look(plain)];
  expect(e.mark).not.toBe('none');
  expect(w.mark).not.toBe('none');
  expect(e.mark).not.toBe(w.mark);
  expect(p.mark).toBe('none');
  await expect(error).toHaveAttribute('aria-description', /^Error: /);
  await expect(warning).toHaveAttribute('aria-description', /^Warning: /);

  // Forced colours: backgrounds go, so the system's colours and edges carry the marks.
  await page.emulateMedia({ forcedColors: 'active' });
  const [fe, fw, fp] = [await look(error), await look(warning), await look(plain)];
  expect(fe.fill, 'an error cell is filled with the Mark colour').not.toBe(fp.fill);
  expect(fe.edge).not.toBe(fp.edge);
  expect(fw.edge).not.toBe(fp.edge);
  expect(fw.edge, 'a warning is edged apart from an error').not.toBe(fe.edge);
  expect(fe.mark).not.toBe('none');
  expect(fw.mark).not.toBe('none');
  await page.emulateMedia({ forcedColors: 'none' });
  expect(await seriousViolations(page), 'axe on Prepare with an error and a warning').toEqual([]);
});
