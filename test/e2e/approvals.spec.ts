import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { PgTeamDatabase } from '../../electron/services/team/teamDatabase';
import { gzipBulkFile } from '../../electron/services/upload/compress';
import type { DonationAttributes } from '../../shared/donation';
import { expect, openApp, openFixedSample, seriousViolations } from './fixtures';
import { ALICE, aliceAndBobTeam, BOB, startTeamApp } from './teamApps';

/*
 * Team mode in the browser: a throwaway PostgreSQL cluster set up with `init-team`, two logins
 * (alice prepares, bob approves), uploads submitted through the team database's own interface, and each person's own app (a bridge
 * whose DONATION_DESK_DATABASE_URL names their login).
 */

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

interface Submitted {
  id: string;
  fileSha256: string;
}

/** A login's own connection to the team database, as their app opens it. */
const teamDatabaseOf = (who: { login: string; password: string }, computer: string) =>
  new PgTeamDatabase({ url: team.cluster.url(who.login, who.password), computer });

/**
 * Donations adding up to the declared totals: the largest recipients named, the rest of each
 * currency's count and amount spread over other causes.
 */
function donationsFor(
  totals: Array<{ currencyCode: string; amount: number; count: number }>,
  largest: Array<{ recipientId: string; currencyCode: string; amount: number; count: number }>,
): DonationAttributes[] {
  const gift = (recipientId: string, currencyCode: string, amount: number): DonationAttributes => ({
    destination: { recipientId },
    funds: { paymentType: 'DONATION_REPORT', currencyCode, amount, source: 'COMPANY' },
  });
  const out: DonationAttributes[] = [];
  for (const t of totals) {
    const named = largest.filter((l) => l.currencyCode === t.currencyCode);
    for (const l of named)
      for (let i = 0; i < l.count; i++) out.push(gift(l.recipientId, t.currencyCode, l.amount / l.count));
    const left = t.count - named.reduce((n, l) => n + l.count, 0);
    let amountLeft = t.amount - named.reduce((n, l) => n + l.amount, 0);
    for (let i = 0; i < left; i++) {
      const share = i === left - 1 ? amountLeft : Math.floor(amountLeft / (left - i));
      amountLeft -= share;
      out.push(gift(`250-12788350${i}`, t.currencyCode, share));
    }
  }
  return out;
}

/** alice submits an upload as her app does on Upload…: rows claimed, then the upload (the rule "always" makes it wait). */
async function submitAs(
  who: { login: string; password: string },
  id: string,
  workspaceName: string,
  month: string,
  totals: Array<{ currencyCode: string; amount: number; count: number }>,
  largestRecipients: Array<{ recipientId: string; currencyCode: string; amount: number; count: number }>,
  extra: { alreadyOut?: number; warnings?: string[] } = {},
): Promise<Submitted> {
  const computer = `${who.login}-laptop`;
  const db = teamDatabaseOf(who, computer);
  // A real bulk file that holds what is declared: the approver's computer reads it.
  const file = await gzipBulkFile(donationsFor(totals, largestRecipients));
  const fileSha256 = file.sha256;
  const rows = totals.reduce((n, t) => n + t.count, 0);
  const environmentKey = 'offline http://127.0.0.1';
  try {
    const refused = await db.claimRows(
      id,
      environmentKey,
      Array.from({ length: rows }, (_, i) => sha(`${id} row ${i}`)),
    );
    expect(refused).toEqual([]);
    const upload = await db.submit({
      id,
      workspaceName,
      environment: 'offline',
      environmentKey,
      computer,
      fileSha256,
      rows,
      totals,
      review: { month, largestRecipients, alreadyOut: extra.alreadyOut ?? 0, warnings: extra.warnings ?? [] },
    });
    expect(upload.state).toBe('waiting');
    // The exact file goes with every submission: an approval needs it stored.
    await db.storeUploadFile(id, 0, file.gz);
  } finally {
    await db.close();
  }
  return { id, fileSha256 };
}

const submitAsAlice = (...args: Parameters<typeof submitAs> extends [unknown, ...infer R] ? R : never) =>
  submitAs(ALICE, ...args);

const startApp = (who: { login: string; password: string } | null, url?: string) =>
  startTeamApp(url ?? (who ? team.cluster.url(who.login, who.password) : null));

const nav = (page: Page) => page.getByRole('navigation', { name: 'Areas' });

/** October went out (approved by bob, sent by alice): the review compares November with it. */
async function octoberWentOut(): Promise<void> {
  const october = await submitAsAlice(
    'upload-october',
    'October gifts',
    '2026-10',
    [{ currencyCode: 'USD', amount: 1_000_00, count: 2 }],
    [],
  );
  const bob = teamDatabaseOf(BOB, 'bob-desk');
  const alice = teamDatabaseOf(ALICE, 'alice-laptop');
  try {
    await bob.decide(october.id, 'approve', october.fileSha256, null);
    await alice.markSent(october.id, october.fileSha256);
  } finally {
    await Promise.all([bob.close(), alice.close()]);
  }
}

const team = aliceAndBobTeam({ seed: octoberWentOut });
const { test } = team;

test.describe.configure({ mode: 'serial' });

test('an approver reviews a waiting upload, cannot reject without a reason, approves it, and the trail says so', async ({
  page,
  bobApp,
}) => {
  const november = await submitAsAlice(
    'upload-november',
    'November gifts',
    '2026-11',
    [
      { currencyCode: 'USD', amount: 1_250_00, count: 3 },
      { currencyCode: 'EUR', amount: 300_00, count: 1 },
    ],
    [
      { recipientId: '840-563097462', currencyCode: 'USD', amount: 900_00, count: 1 },
      { recipientId: '276-446863710', currencyCode: 'EUR', amount: 300_00, count: 1 },
      { recipientId: '840-446863710', currencyCode: 'USD', amount: 250_00, count: 1 },
      { recipientId: '250-127883500', currencyCode: 'USD', amount: 100_00, count: 1 },
    ],
  );
  await openApp(page, bobApp, 'approvals');

  // The header: the team's server and who the server says is connected.
  const badge = page.getByTestId('team-badge');
  await expect(badge).toHaveAttribute('data-state', 'reachable');
  await expect(badge).toContainText(`127.0.0.1:${team.cluster.port}/desk`);
  await expect(badge).toContainText('bob');
  // The side bar: Approvals, with the count of waiting uploads.
  await expect(nav(page).getByRole('link', { name: /Approvals/ })).toContainText('1');
  await expect(page.getByTestId('approvals-waiting')).toHaveText('1 waiting');

  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  const row = page.getByTestId('approval-row').filter({ hasText: 'November gifts' });
  await expect(row).toContainText('Waiting for approval');
  await expect(row).toContainText('alice');
  await expect(row).toContainText('alice-laptop');
  await expect(row).toContainText('$1,250.00');
  await expect(row).toContainText('€300.00');
  // Waiting first, above what is already decided.
  await expect(page.getByTestId('approval-row').first()).toContainText('November gifts');
  expect(await seriousViolations(page)).toEqual([]);

  // The review page, reached from the keyboard.
  await row.getByRole('link', { name: 'November gifts' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Review: November gifts' })).toBeVisible();
  await expect(page.getByTestId('review-rows')).toHaveText('4 donations in the file');
  const totals = page.getByTestId('review-totals');
  await expect(totals.getByRole('row', { name: /USD/ })).toContainText('$1,250.00');
  await expect(totals.getByRole('row', { name: /USD/ })).toContainText('$1,000.00');
  await expect(totals.getByRole('row', { name: /USD/ })).toContainText('+$250.00 (+25.0%)');
  await expect(totals.getByRole('row', { name: /EUR/ })).toContainText('€300.00');
  await expect(totals).toContainText('Sent in October 2026');
  const largest = page.getByTestId('review-largest');
  await expect(largest.getByRole('row').nth(1)).toContainText('840-563097462');
  await expect(largest.getByRole('row').nth(1)).toContainText('$900.00');
  // Computed from the file, not from what alice's app declared (its rows were never sent before).
  await expect(page.getByTestId('review-already-out')).toContainText(
    'None: the team sent no row of this file in another upload.',
  );
  await expect(page.getByTestId('review-sha256')).toHaveText(november.fileSha256);
  expect(await seriousViolations(page)).toEqual([]);

  await page.setViewportSize({ width: 1280, height: 1000 });
  await mkdir('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/approval-review-1280.png', fullPage: true });

  // Reject needs a reason: the dialog's Reject stays disabled until one is typed.
  await page.getByRole('button', { name: 'Reject…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject this upload?' });
  await expect(dialog.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('   ');
  await expect(dialog.getByRole('button', { name: 'Reject', exact: true })).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Approve, with a confirmation.
  await page.getByRole('button', { name: 'Approve…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve this upload?' });
  await expect(confirm).toContainText('€300.00 and $1,250.00 in 4 donations');
  await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText('You approved this upload.')).toBeVisible();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'approved');
  await expect(page.getByRole('button', { name: 'Approve…' })).toBeDisabled();
  await expect(page.getByTestId('review-why-not')).toContainText('approved by bob');
  // The database holds the decision, by bob.
  const stored = await team.cluster.query<{ state: string; decided_by: string }>(
    `SELECT state, decided_by FROM desk.upload WHERE id = 'upload-november'`,
  );
  expect(stored.rows[0]).toEqual({ state: 'approved', decided_by: 'bob' });

  // The list shows it approved; nothing waits any more.
  await page.getByRole('link', { name: '← All approvals' }).click();
  await expect(row.getByTestId('approval-state')).toHaveAttribute('data-state', 'approved');
  await expect(row).toContainText('bob');
  await expect(page.getByTestId('approvals-waiting')).toBeHidden();

  // The Audit view: the team's trail holds the approval, by bob.
  await nav(page).getByRole('link', { name: 'Audit' }).click();
  const approval = page.getByTestId('audit-entry').filter({ hasText: /Approved/ });
  await expect(approval.first()).toContainText('bob');
  await expect(approval.first()).toContainText('upload-november');
});

test('the preparer sees her own upload with Approve disabled, and why', async ({ page, aliceApp }) => {
  await submitAsAlice(
    'upload-december',
    'December gifts',
    '2026-12',
    [{ currencyCode: 'USD', amount: 75_00, count: 1 }],
    [{ recipientId: '840-563097462', currencyCode: 'USD', amount: 75_00, count: 1 }],
  );
  await openApp(page, aliceApp, 'approvals/upload-december');
  await expect(page.getByRole('heading', { name: 'Review: December gifts' })).toBeVisible();
  await expect(page.getByTestId('team-badge')).toContainText('alice');
  const approve = page.getByRole('button', { name: 'Approve…' });
  await expect(approve).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reject…' })).toBeDisabled();
  await expect(page.getByTestId('review-why-not')).toHaveText(
    'Only a person with the approver role may approve.',
  );
  await expect(approve).toHaveAccessibleDescription('Only a person with the approver role may approve.');
  expect(await seriousViolations(page)).toEqual([]);
});

test('an approver who prepared the upload is told another person must approve it', async ({ page }) => {
  // carol may both prepare and approve: the screen (and the database) still keep her off her own.
  const CAROL = { login: 'carol', password: 'carol-pw-3' };
  await team.cluster.createLogin(CAROL.login, CAROL.password, ['desk_preparer', 'desk_approver']);
  await submitAs(
    CAROL,
    'upload-carol',
    'Carol’s gifts',
    '2026-11',
    [{ currencyCode: 'USD', amount: 500, count: 1 }],
    [],
  );
  const app = await startApp(CAROL);
  try {
    await openApp(page, app, 'approvals/upload-carol');
    await expect(page.getByTestId('review-why-not')).toHaveText(
      'You prepared this upload; another person must approve it.',
    );
    await expect(page.getByRole('button', { name: 'Approve…' })).toBeDisabled();
  } finally {
    await app.stop();
  }
});

test('Settings → Team database: Test does not switch, Connect does, Disconnect goes back to working alone', async ({
  page,
}) => {
  const app = await startApp(null);
  try {
    await openApp(page, app, 'settings');
    await expect(page.getByTestId('team-badge')).toHaveCount(0);
    await expect(nav(page).getByRole('link', { name: /Approvals/ })).toHaveCount(0);
    const panel = page.getByRole('form', { name: 'Team database' });
    await panel.getByLabel('Address').fill(`postgres://bob@127.0.0.1:${team.cluster.port}/desk`);
    await panel.getByLabel('Password').fill('wrong-password');
    await panel.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(panel.getByRole('alert')).toBeVisible();
    await panel.getByLabel('Password').fill(BOB.password);
    await panel.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(panel.getByTestId('team-database-feedback')).toContainText('Nothing was changed');
    await expect(panel.getByTestId('team-database-feedback')).toContainText('bob');
    await expect(page.getByTestId('team-badge')).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);

    await panel.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(page.getByTestId('team-badge')).toContainText('bob');
    await expect(panel.getByTestId('team-database-status')).toContainText('approver');
    await expect(nav(page).getByRole('link', { name: /Approvals/ })).toBeVisible();
    // The password went to main and does not come back to the page.
    await expect(panel.getByLabel('Password')).toHaveValue('');
    await expect(panel.getByLabel('Password')).toHaveAttribute('placeholder', /A password is stored/);
    const settings = await page.evaluate(async () => {
      const secret = sessionStorage.getItem('donation-desk.bridge-secret') ?? '';
      const r = await fetch('/api/call/settings.get', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-desk-secret': secret },
        body: '{}',
      });
      return r.text();
    });
    expect(settings).not.toContain(BOB.password);

    await panel.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByTestId('team-badge')).toHaveCount(0);
    await expect(nav(page).getByRole('link', { name: /Approvals/ })).toHaveCount(0);
  } finally {
    await app.stop();
  }
});

test('the header says plainly when the team database cannot be reached', async ({ page }) => {
  // A port nothing listens on: the cluster's own, once it is given a wrong one.
  const app = await startApp(null, `postgres://bob:x@127.0.0.1:${team.cluster.port + 1}/desk`);
  try {
    await openApp(page, app, 'prepare');
    await expect(page.getByTestId('team-badge')).toHaveAttribute('data-state', 'unreachable');
    await expect(page.getByTestId('team-unreachable')).toContainText(
      'Team database unreachable — preparing and checking still work; sending and approving need it.',
    );
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await app.stop();
  }
});

test('maker-checker through the screens: alice uploads, it waits, bob approves it in his app, alice’s app sends it', async ({
  page,
  browser,
  aliceApp,
  bobApp,
}) => {
  test.setTimeout(150_000);
  await openApp(page, aliceApp);
  await openFixedSample(page);
  await page.getByRole('button', { name: 'Upload…' }).click();
  // The team's rule holds every upload: the dialog submits it for approval, it does not send it.
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('upload-for-approval')).toContainText(
    'nothing is sent to the giving service',
  );
  await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Submit for approval' }).click();
  await expect(page.getByTestId('upload-notice')).toContainText('Submitted for approval');
  const upload = page.getByRole('region', { name: /Upload of/ }).first();
  await expect(upload.getByTestId('upload-state')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await expect(upload.getByTestId('upload-approval')).toHaveAttribute('data-state', 'waiting');
  expect(await seriousViolations(page)).toEqual([]);

  // bob, in his own app, finds it in Approvals and approves it.
  const bobPage = await browser.newPage();
  try {
    await openApp(bobPage, bobApp, 'approvals');
    const row = bobPage
      .getByTestId('approval-row')
      .filter({ hasText: /sample/i })
      .filter({ hasText: 'Waiting' });
    await expect(row).toHaveCount(1);
    await row.getByRole('link').click();
    await expect(bobPage.getByTestId('review-rows')).toContainText('donations');
    await bobPage.getByRole('button', { name: 'Approve…' }).click();
    await bobPage.getByRole('dialog').getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(bobPage.getByText('You approved this upload.')).toBeVisible();
  } finally {
    await bobPage.close();
  }

  // alice's app sends it by itself once approved, and the service processes it.
  await expect(upload.getByTestId('intent-state').first()).toHaveAttribute('data-status', 'PROCESSED', {
    timeout: 90_000,
  });
  await expect(upload.getByTestId('upload-approval')).toContainText('Approved by bob');
});
