import type { Page } from '@playwright/test';
import {
  test,
  firstRunTest,
  expect,
  openApp,
  openFixedSample,
  serviceFaults,
  seriousViolations,
} from './fixtures';

/*
 * The giving service's calendar: announced maintenance dates in Settings and the next window, the
 * warning before an upload, what Uploads says during maintenance, and the Sandbox's staffed hours.
 * The browser's clock is fixed where a test needs a given moment (the app's own timers still run).
 */

test.use({ locale: 'en-GB', timezoneId: 'Europe/Berlin' });
firstRunTest.use({ locale: 'en-GB', timezoneId: 'Europe/Berlin' });

const calendar = (page: Page) => page.getByRole('form', { name: 'Scheduled maintenance' });

async function announce(page: Page, dates: string): Promise<void> {
  await calendar(page).getByLabel('Announced maintenance dates').fill(dates);
  await calendar(page).getByRole('button', { name: 'Use these dates' }).click();
}

test('Settings takes the announced maintenance dates and shows the next window in your time and Mountain Time', async ({
  page,
  bridge,
}) => {
  // Thursday 26 November 2026, 21:00 in Berlin.
  await page.clock.setFixedTime(new Date('2026-11-26T20:00:00Z'));
  await openApp(page, bridge, 'settings');
  const next = calendar(page).getByTestId('next-maintenance');
  // Nothing announced yet: a guess, and it says so.
  await expect(next).toContainText('a guess, about five weeks after the last known date');
  await expect(next).toContainText('No date is entered yet');

  await announce(page, '2026-12-06');
  await expect(calendar(page).getByRole('alert')).toHaveText(
    "Not saved. 2026-12-06 is not a Saturday: the service's maintenance is always on a Saturday.",
  );
  await announce(page, '2026-12-05\n2027-01-09');
  await expect(calendar(page).getByRole('status')).toHaveText('Saved 2 dates.');
  // 18:00–24:00 Mountain Time is 02:00–08:00 on the Sunday in Berlin.
  await expect(next).toHaveText(
    /^Next maintenance: Sat,? 5 Dec 2026, 18:00–24:00 Mountain Time \(Sun,? 6 Dec,? 02:00–08:00 your time\)$/,
  );
  expect(await seriousViolations(page), 'axe on Settings').toEqual([]);

  // Kept: the page opened again reads them back.
  await page.reload();
  await expect(calendar(page).getByLabel('Announced maintenance dates')).toHaveValue(
    '2026-12-05\n2027-01-09',
  );
});

test('the upload dialog warns that the service may still be processing when a window starts; the person may still send', async ({
  page,
  bridge,
}) => {
  // Saturday 5 December 2026, 13:00 in Berlin (05:00 Mountain Time): the window starts in 13 hours.
  await page.clock.setFixedTime(new Date('2026-12-05T12:00:00Z'));
  await openApp(page, bridge, 'settings');
  await announce(page, '2026-12-05');
  await expect(calendar(page).getByRole('status')).toHaveText('Saved one date.');

  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Prepare' }).click();
  await openFixedSample(page);
  await page.getByRole('button', { name: 'Upload…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
  await expect(dialog.getByTestId('maintenance-ahead')).toHaveText(
    /^The giving service has scheduled maintenance from Sat,? 5 Dec 2026, 18:00 Mountain Time \(Sun,? 6 Dec,? 02:00 your time\)\. Processing can take up to 24 hours, so this upload may still be validating or processing then\. It is safe to send: the desk follows it again when the service is back\.$/,
  );
  await expect(dialog.getByRole('button', { name: 'Send' })).toBeEnabled();
  expect(await seriousViolations(page), 'axe on the upload dialog').toEqual([]);
});

firstRunTest(
  'during maintenance Uploads says until when, in Mountain Time and your time, and following goes on after it',
  async ({ page, bridge }) => {
    await openApp(page, bridge);
    await openFixedSample(page);
    await page.getByRole('button', { name: 'Upload…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload to the giving service' });
    // No window near (none announced and the guess is weeks away or the sandbox is not in one).
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('heading', { name: 'Uploads', level: 1 })).toBeVisible();
    await expect(page.getByTestId('intent-state').first()).toHaveAttribute(
      'data-status',
      /UPLOADED|VALIDATED|PROCESSING/,
    );
    await serviceFaults(bridge, { maintenance: 'on' });
    const notice = page.getByTestId('maintenance-notice');
    await expect(notice).toHaveText(
      /^The giving service is in scheduled maintenance until \d\d:\d\d Mountain Time \((\w+,? \d+ \w+,? )?\d\d:\d\d your time\)\. Your upload is safe; it will be followed when the service is back\.$/,
      { timeout: 15_000 },
    );
    // Not an error: nothing red, and the upload is still followed.
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByTestId('upload-state').first()).not.toHaveText(/Failed|Stopped|Error/);
    expect(await seriousViolations(page), 'axe on Uploads during maintenance').toEqual([]);

    await serviceFaults(bridge, { maintenance: 'off' });
    await expect(notice).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
      timeout: 60_000,
    });
  },
);

test('the Sandbox badge says when the sandbox is not staffed, with its hours in your time', async ({
  page,
  bridge,
}) => {
  // Saturday 28 November 2026, 19:00 in Berlin: the sandbox's staff are off for the weekend.
  await page.clock.setFixedTime(new Date('2026-11-28T18:00:00Z'));
  await openApp(page, bridge, 'settings');
  await page.getByRole('radio', { name: /^Sandbox/ }).check();
  await page.getByLabel('Service address').fill('https://api.sandbox.giving.example.org');
  await page.getByLabel('Token address').fill('https://auth.sandbox.giving.example.org/oauth2/token');
  await page.getByLabel('Client id').fill('acme-finance');
  await page.getByLabel('Client secret').fill('acme-secret');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const badge = page.getByTestId('environment-badge');
  await expect(badge).toHaveText('Sandbox · not staffed now');
  await badge.hover();
  // 9:00–17:00 Mountain Time is 17:00–01:00 in Berlin.
  await expect(page.getByRole('tooltip')).toContainText(
    "Not staffed now: the service's staff look after the sandbox 9:00–17:00 Mountain Time, Monday to Friday (17:00–01:00 your time).",
  );

  // Monday 30 November, 18:00 in Berlin (10:00 Mountain Time): staffed.
  await page.clock.setFixedTime(new Date('2026-11-30T17:00:00Z'));
  await page.reload();
  await expect(badge).toHaveText('Sandbox');
});
