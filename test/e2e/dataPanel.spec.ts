import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, openApp, test } from './fixtures';

test('Settings → Data checks the database and backs it up to a file in the data folder', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'settings');
  const data = page.getByRole('region', { name: 'Data' });
  await data.getByRole('button', { name: 'Check the database' }).click();
  await expect(data.getByTestId('data-outcome')).toContainText(
    `The database ${join(bridge.dataDir, 'desk.db')} is whole`,
  );

  await data.getByRole('button', { name: 'Back up to a file' }).click();
  const outcome = data.getByTestId('data-outcome');
  await expect(outcome).toContainText(`Backed up to ${join(bridge.dataDir, 'backups', 'desk-')}`);
  // The file named is a whole SQLite database.
  const path = /Backed up to (\S+\.db)/.exec((await outcome.textContent()) ?? '')?.[1] as string;
  expect((await readFile(path)).subarray(0, 15).toString()).toBe('SQLite format 3');
});
