import { test, expect, openApp } from './fixtures';

// "社員番号,氏名,寄付額 / 00123,山田 太郎,5000" as a Japanese payroll system saves it: Shift-JIS.
const SHIFT_JIS = Buffer.from(
  '8ed088f594d48d862c8e8196bc2c8af195748a7a0d0a30303132332c8e5293632091be98592c353030300d0a',
  'hex',
);

test('a Shift-JIS CSV opens with its Japanese headers, and the notes name the encoding', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  await page.getByTestId('file-input').setInputFiles({
    name: 'payroll.csv',
    mimeType: 'text/csv',
    buffer: SHIFT_JIS,
  });
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toBeVisible();
  await expect(page.locator('#main').getByText('it was read as Shift-JIS (Japanese)')).toBeVisible();
  await expect(page.getByLabel('Use “氏名” as')).toBeVisible();
});

test('Excel’s lock file named .xlsx is refused with what to do, not read as rows', async ({
  page,
  bridge,
}) => {
  await openApp(page, bridge);
  const lock = Buffer.alloc(165);
  lock.write('\u0009Ann Smith', 0, 'latin1');
  await page.getByTestId('file-input').setInputFiles({
    name: '~$November.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: lock,
  });
  await expect(
    page.getByText('"~$November.xlsx" is the lock file Excel keeps while "November.xlsx" is open'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Match the columns' })).toHaveCount(0);
});
