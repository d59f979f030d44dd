import { smallReaderTest as test, expect, openApp } from './fixtures';
import { plainXls, xlsThatKillsSheetJS } from '../../shared/spreadsheet/testing/craftedXls';

// The window's own memory is limited too, so that a reader running in the window's process (as it
// once did, in the import worker) meets the limit in seconds and takes the page down.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--js-flags=--max-old-space-size=256'],
  },
});

test('an .xls that makes the spreadsheet reader run out of memory is refused, and the app carries on', async ({
  page,
  bridge,
}) => {
  test.setTimeout(4 * 60_000);
  let crashed = false;
  page.on('crash', () => (crashed = true));
  await openApp(page, bridge);
  await page.getByTestId('file-input').setInputFiles({
    name: 'old-ledger.xls',
    mimeType: 'application/vnd.ms-excel',
    buffer: Buffer.from(xlsThatKillsSheetJS()),
  });
  await expect(page.getByText(/The file could not be read: the spreadsheet reader stopped/)).toBeVisible({
    timeout: 3 * 60_000,
  });
  expect(crashed).toBe(false);
  // The app still reads the next file.
  await page.getByTestId('file-input').setInputFiles({
    name: 'ledger.xls',
    mimeType: 'application/vnd.ms-excel',
    buffer: Buffer.from(
      plainXls([
        ['Donor', 'Amount'],
        ['Ann Smith', 25],
      ]),
    ),
  });
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Ann Smith' })).toBeVisible();
});
