import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import type { Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { expect, grid, openApp, retype, seriousViolations, test } from './fixtures';

/** A call to main through the bridge, with the page's own secret (as the app's client makes it). */
async function call<T>(page: Page, channel: string, body: unknown): Promise<T> {
  return page.evaluate(
    async ({ channel, body }) => {
      const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
      const res = await fetch(`/api/call/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { ok: boolean; value: unknown; error?: { message: string } };
      if (!answer.ok) throw new Error(answer.error?.message);
      return answer.value;
    },
    { channel, body },
  ) as Promise<T>;
}

test('the Audit view lists an import and an edit made in Prepare, filters them, and exports them', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  const csv = Buffer.from(
    [
      'Cause ID;Donation (€);Donor name',
      '840-563097462;25,00;Ana Lopez',
      '840-446863710;12,50;Ben Okafor',
    ].join('\r\n'),
    'utf8',
  );
  const sha256 = createHash('sha256').update(csv).digest('hex');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'november.csv', mimeType: 'text/csv', buffer: csv });
  await page.getByRole('button', { name: 'Check every row' }).click();
  await expect(grid(page).getByRole('gridcell', { name: '12,50', exact: true })).toBeVisible();
  await retype(page, '12,50', '15,00');
  await expect(grid(page).getByRole('gridcell', { name: '15,00', exact: true })).toBeVisible();
  // The edit reaches main after the frame that shows it (and "All changes saved" may still be on
  // screen from the import): wait until the trail holds it, so the next entry is surely newer.
  await expect
    .poll(async () => {
      const page1 = await call<{ entries: Array<{ action: string }> }>(page, 'audit.list', { filter: {} });
      return page1.entries.map((e) => e.action);
    })
    .toContain('edit');

  // Another workspace, so the filter has something to leave out.
  await call(page, 'workspace.create', {
    name: 'Other',
    source: { fileName: 'october.xlsx', format: 'xlsx', sheet: 'S', headerRow: 1 },
    headers: ['Cause ID'],
    rows: [{ key: 1, rowNumber: 2, cells: ['840-563097462'] }],
    mapping: null,
  });
  const workspaces = await call<Array<{ id: string; source: { fileName: string } }>>(
    page,
    'workspace.list',
    {},
  );
  const november = workspaces.find((w) => w.source.fileName === 'november.csv')?.id as string;

  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
  const entries = page.getByTestId('audit-entry');
  // Newest first: the other import, the edit, the November import, the first-run setting.
  await expect(entries).toHaveCount(4);
  await expect(entries.nth(0)).toContainText('Imported a file');
  await expect(entries.nth(0)).toContainText('“october.xlsx”');
  await expect(entries.nth(1)).toContainText('Edited cells');
  await expect(entries.nth(1)).toContainText('1 cell changed: row 3 Donation (€): “12,50” → “15,00”');
  await expect(entries.nth(2)).toContainText('“november.csv”, sheet');
  await expect(entries.nth(2)).toContainText(`SHA-256 ${sha256}`);
  // What only the writing computer knows is said as its report.
  await expect(entries.nth(2).getByTestId('audit-reported')).toHaveText(
    `As reported by that computer: computer ${hostname()}, workspace ${november}, file november.csv.`,
  );
  // The trail itself was checked when the view opened.
  await expect(page.getByTestId('audit-trail-status')).toContainText(
    'The data folder’s audit trail is whole: 4 entries',
  );
  await expect(entries.nth(3)).toContainText('Changed settings');
  await expect(entries.nth(1)).toContainText('Offline sandbox');
  expect(await seriousViolations(page)).toEqual([]);

  // By workspace: the November import and its edit only.
  await page.getByLabel('Workspace id').fill(november);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(entries).toHaveCount(2);
  await expect(page.getByTestId('audit-count')).toHaveText('Entries 1–2 of 2 entries, newest first');
  await expect(entries.nth(1)).toContainText('“november.csv”');

  // A day range after today: nothing.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('From (UTC)').fill(tomorrow);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('audit-count')).toHaveText('No entry matches these filters.');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await page.getByLabel('From (UTC)').fill('');
  // And by person: the bridge runs as this computer's user.
  await page.getByLabel('Person').click();
  await page.getByRole('option', { name: userInfo().username, exact: true }).click();
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(hostname());

  // The export holds what the filter shows.
  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csvDownload.suggestedFilename()).toMatch(/^audit-trail-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await readFile((await csvDownload.path()) as string, 'utf8');
  const lines = exported.split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(',Edited cells,edit,');
  expect(lines[2]).toContain(sha256);
  expect(exported).not.toContain('october.xlsx');

  const [xlsxDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export xlsx' }).click(),
  ]);
  const book = XLSX.read(await readFile((await xlsxDownload.path()) as string));
  const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Audit trail']!, { header: 1 });
  expect(rows.map((r) => r[6])).toEqual(['Action code', 'edit', 'import']);
  expect(rows[1]?.[8]).toBe(november);
});

test('the Audit view reads the trail a page at a time, newest first', async ({ page, bridge }) => {
  await openApp(page, bridge, 'audit');
  for (let i = 1; i <= 52; i++) {
    await call(page, 'workspace.create', {
      name: `Month ${i}`,
      source: { fileName: `month-${i}.xlsx`, format: 'xlsx', sheet: 'S', headerRow: 1 },
      headers: ['Cause ID'],
      rows: [],
      mapping: null,
    });
  }
  await page.reload();
  const entries = page.getByTestId('audit-entry');
  await expect(page.getByTestId('audit-count')).toHaveText('Entries 1–50 of 53 entries, newest first');
  await expect(entries).toHaveCount(50);
  await expect(entries.first()).toContainText('“month-52.xlsx”');
  await expect(page.getByRole('button', { name: 'Newer entries' })).toBeDisabled();
  await page.getByRole('button', { name: 'Older entries' }).click();
  await expect(page.getByTestId('audit-count')).toHaveText('Entries 51–53 of 53 entries, newest first');
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(1)).toContainText('“month-1.xlsx”');
  await expect(entries.nth(2)).toContainText('Changed settings');
  await expect(page.getByRole('button', { name: 'Older entries' })).toBeDisabled();
  await page.getByRole('button', { name: 'Newer entries' }).click();
  await expect(entries.first()).toContainText('“month-52.xlsx”');
});
