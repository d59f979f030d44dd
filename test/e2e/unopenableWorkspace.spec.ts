import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, openApp, seriousViolations } from './fixtures';

test('a workspace whose saved rows are damaged is listed as one that cannot be opened, with what to do, and the rest works', async ({
  page,
  bridge,
}) => {
  const id = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const dir = join(bridge.dataDir, 'workspaces', id);
  await mkdir(dir, { recursive: true });
  const source = {
    fileName: 'september.xlsx',
    format: 'xlsx',
    sheet: 'Gifts',
    headerRow: 1,
    headerRowCount: 1,
    totalsRow: null,
    skippedBlankRows: 0,
    warnings: [],
  };
  const at = '2026-09-30T09:00:00.000Z';
  await writeFile(
    join(dir, 'meta.json'),
    JSON.stringify({
      id,
      name: 'September gifts',
      createdAt: at,
      updatedAt: at,
      state: 'draft',
      source,
      counts: null,
    }),
  );
  await writeFile(join(dir, 'workspace.json'), '{"id":"0a1b2c3d-4e5f-4a6b');
  // The list reads no rows: the damage is found when the workspace is first opened.
  await fetch(`${bridge.origin}/api/call/workspace.open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: JSON.stringify({ id }),
  });

  await openApp(page, bridge);
  const row = page.getByTestId('workspace-row').filter({ hasText: 'September gifts' });
  await expect(row.getByTestId('workspace-unopenable')).toContainText('Cannot be opened');
  await expect(row).toContainText(
    'Delete it from the list, or open a copy of the original spreadsheet (september.xlsx) to start again.',
  );
  // Its name is not a link that would fail.
  await expect(row.getByRole('button', { name: 'September gifts', exact: true })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // The rest works: the sample opens beside it, and the damaged one can be deleted.
  page.on('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Delete workspace September gifts' }).click();
  await expect(page.getByTestId('workspace-row').filter({ hasText: 'September gifts' })).toHaveCount(0);
});
