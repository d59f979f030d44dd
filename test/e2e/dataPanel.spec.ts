import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
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

test('Settings → Data checks the audit trail: whole, then broken at the entry edited from outside the app', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge, 'settings');
  const data = page.getByRole('region', { name: 'Data' });
  await data.getByRole('button', { name: 'Check the audit trail' }).click();
  const outcome = data.getByTestId('data-outcome');
  await expect(outcome).toContainText(/The data folder’s audit trail is whole: \d+ entr(y|ies)/);

  // Someone with the file and SQLite: the insert-only triggers dropped, the first entry rewritten.
  const raw = new DatabaseSync(join(bridge.dataDir, 'desk.db'));
  try {
    raw.exec('DROP TRIGGER audit_no_update');
    raw.exec("UPDATE audit SET person = 'someone else' WHERE seq = 1");
    raw.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } finally {
    raw.close();
  }
  await data.getByRole('button', { name: 'Check the audit trail' }).click();
  await expect(outcome).toContainText(
    /The data folder’s audit trail is broken at entry 1 \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\): its content was changed after it was written\./,
  );
  await expect(outcome).toContainText('tell your auditor or desk admin');
  await expect(data.getByRole('alert')).toBeVisible();

  // The Audit view says the same in its status line.
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByTestId('audit-trail-status')).toContainText(
    'The data folder’s audit trail is broken at entry 1',
  );
});
