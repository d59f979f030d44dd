import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/** A test with a bridge of its own (a fresh data folder), started with these extra settings. */
const withBridge = (env: Record<string, string> = {}) =>
  base.extend<{ bridge: BridgeProcess }>({
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    bridge: async ({}, use) => {
      const bridge = await startBridgeProcess(await newDataDir(), env);
      await use(bridge);
      await bridge.stop();
    },
  });

export const test = withBridge();

export { expect };

/**
 * A bridge whose Offline sandbox runs its clock fast and whose app polls often, so a bulk job
 * finishes in seconds.
 */
const FAST = {
  DONATION_DESK_OFFLINE_TIME_SCALE: '600',
  DONATION_DESK_POLL_MIN_MS: '500',
  DONATION_DESK_POLL_MAX_MS: '2000',
};
export const fastTest = withBridge(FAST);

/**
 * A bridge whose Offline sandbox runs at the app's own speed (60 virtual seconds per real second),
 * as a newcomer has it; only the app's polling of bulk jobs is quicker.
 */
export const firstRunTest = withBridge({
  DONATION_DESK_POLL_MIN_MS: '500',
  DONATION_DESK_POLL_MAX_MS: '2000',
});

/** As fastTest, with Reconcile's background refresh every second (five minutes in the app). */
export const backgroundRefreshTest = withBridge({ ...FAST, DONATION_DESK_RECONCILE_POLL_MS: '1000' });

/** The Prepare grid of the open workspace. */
export const grid = (page: Page) => page.getByRole('grid', { name: /Rows of/ });

/** Clicks a grid cell by its text and types a new value over it, as a person would. */
export async function retype(page: Page, text: string, value: string): Promise<void> {
  await grid(page).getByRole('gridcell', { name: text, exact: true }).first().click();
  await page.keyboard.press('F2');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

/** The Offline sandbox's own address, from the app (its controls are not part of the service). */
async function serviceBase(bridge: BridgeProcess): Promise<string> {
  const info = await fetch(`${bridge.origin}/api/call/app.info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-secret': bridge.secret },
    body: '{}',
  });
  return ((await info.json()) as { value: { environment: { baseUrl: string } } }).value.environment.baseUrl;
}

/** How many donations the Offline sandbox holds. */
export async function donationsAtService(bridge: BridgeProcess): Promise<number> {
  const emulator = await fetch(`${await serviceBase(bridge)}/_emulator/info`);
  return ((await emulator.json()) as { counts: { donations: number } }).counts.donations;
}

/** Sample ids the Offline sandbox offers (causes in and not in good standing, with names). */
export async function sandboxSamples(bridge: BridgeProcess): Promise<{
  causesInGoodStanding: Array<{ id: string; name: string }>;
  causesNotInGoodStanding: string[];
}> {
  const emulator = await fetch(`${await serviceBase(bridge)}/_emulator/info`);
  return ((await emulator.json()) as { samples: Awaited<ReturnType<typeof sandboxSamples>> }).samples;
}

/** Sets the Offline sandbox's injected faults (e.g. `{ error500Rate: 1 }`; `{ reset: true }` ends them). */
export async function serviceFaults(bridge: BridgeProcess, faults: Record<string, unknown>): Promise<void> {
  const r = await fetch(`${await serviceBase(bridge)}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (!r.ok) throw new Error(`The sandbox faults were not set: ${r.status}`);
}

/** Moves the Offline sandbox's clock on. */
export async function advanceServiceClock(bridge: BridgeProcess, seconds: number): Promise<void> {
  const r = await fetch(`${await serviceBase(bridge)}/_emulator/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  if (!r.ok) throw new Error(`The sandbox clock did not move: ${r.status}`);
}

/** Opens the app past the welcome page, on the Offline sandbox. */
export async function openApp(page: Page, bridge: BridgeProcess, area = 'prepare'): Promise<void> {
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Donation Desk' })).toBeVisible();
  await page.evaluate(async () => {
    // Mark the first run as done through the app's own client, as the welcome buttons do.
    const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
    await fetch('/api/call/settings.save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
      body: JSON.stringify({ firstRunDone: true }),
    });
  });
  await page.goto(`${bridge.origin}/#/${area}`);
}

/**
 * The sample's well-formed cause id that the Offline sandbox does not know (two digits swapped, row
 * 24): the app cannot tell, the service refuses the row when it validates the file.
 */
export const SAMPLE_UNKNOWN_RECIPIENT = '840-563097426';
/** The id that row meant. */
export const SAMPLE_RIGHT_RECIPIENT = '840-563097462';

/** Fixes the sample's three cells the app's own checks find. */
export async function fixSampleLocalErrors(page: Page): Promise<void> {
  await retype(page, '10.005', '10.01');
  await retype(page, 'george.chen@', 'george.chen@acme.example');
  await retype(page, '840 56309746', SAMPLE_RIGHT_RECIPIENT);
}

/**
 * Opens the sample spreadsheet in Prepare and fixes its three invalid cells, and the recipient the
 * service would refuse, so that every row goes through (the first-run walk meets that refusal instead).
 */
export async function openFixedSample(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open the sample spreadsheet' }).click();
  await page.getByRole('button', { name: 'Check every row' }).click();
  await fixSampleLocalErrors(page);
  await retype(page, SAMPLE_UNKNOWN_RECIPIENT, SAMPLE_RIGHT_RECIPIENT);
}

/** Sends the open workspace from the upload dialog and waits until the service has processed it. */
export async function sendAndProcess(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Upload…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
    timeout: 60_000,
  });
}

/** Moves the service's clock on (every donation reaches the end of its life) and refreshes Reconcile. */
export async function reconcileLater(page: Page, bridge: BridgeProcess, seconds = 10 * 3600): Promise<void> {
  await advanceServiceClock(bridge, seconds);
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Reconcile' }).click();
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
}

/** Serious and critical accessibility violations on the current page. */
export async function seriousViolations(page: Page) {
  // Colours are judged as they end, not halfway through a dialog's fade-in (spinners, which never
  // end, are not waited for).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * Starts recording every text the element with this id shows (a dialog's title), so a test can check
 * what a dialog said until it was gone, fade-out included; read back with `titlesSeen`.
 */
export async function watchTitle(page: Page, id: string): Promise<void> {
  await page.evaluate((watched) => {
    const seen: string[] = [];
    (window as unknown as { titlesSeen: string[] }).titlesSeen = seen;
    const note = () => {
      const title = document.getElementById(watched)?.textContent;
      if (title && seen.at(-1) !== title) seen.push(title);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, id);
}

export async function titlesSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { titlesSeen: string[] }).titlesSeen);
}

/** As test, with the general reader's separate process limited to 128 MB (its limit is met in seconds). */
export const smallReaderTest = withBridge({ DONATION_DESK_SHEETJS_HEAP_MB: '128' });
