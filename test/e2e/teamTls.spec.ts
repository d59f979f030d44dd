import { test } from '@playwright/test';
import { startTeamCluster, type TeamCluster } from '../support/teamCluster';
import { expect, openApp, seriousViolations } from './fixtures';
import { newDataDir, startBridgeProcess, type BridgeProcess } from './bridgeProcess';

/*
 * Team mode over TLS in the browser: a team server that takes encrypted logins only (its own CA,
 * hostssl lines in pg_hba.conf). The header and Settings say the connection is encrypted; Test says
 * plainly what an address without TLS, or without the team's CA, gets from it.
 */

let team: TeamCluster;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  team = await startTeamCluster({ tls: { hostsslOnly: true } });
});

test.afterAll(async () => {
  await team?.stop();
});

async function startApp(url: string | null): Promise<BridgeProcess> {
  return startBridgeProcess(await newDataDir(), url ? { DONATION_DESK_DATABASE_URL: url } : {});
}

test('the header and Settings say the team connection is encrypted, as the server reports it', async ({
  page,
}) => {
  const app = await startApp(team.urlOf('alice'));
  try {
    await openApp(page, app, 'settings');
    const badge = page.getByTestId('team-badge');
    await expect(badge).toHaveAttribute('data-state', 'reachable');
    await expect(badge).toHaveAttribute('data-encrypted', 'true');
    await expect(badge).toContainText(`Team: 127.0.0.1:${team.port}/desk · alice · encrypted (TLSv1.3)`);
    const panel = page.getByRole('form', { name: 'Team database' });
    await expect(panel.getByTestId('team-database-status')).toContainText(
      `Connected to 127.0.0.1:${team.port}/desk as alice, preparer; encrypted (TLSv1.3).`,
    );
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    await app.stop();
  }
});

test('Settings → Test says plainly what TLS is missing, and connects with the team’s CA', async ({
  page,
}) => {
  const app = await startApp(null);
  try {
    await openApp(page, app, 'settings');
    const panel = page.getByRole('form', { name: 'Team database' });
    const address = panel.getByLabel('Address');
    const feedback = panel.getByTestId('team-database-feedback');
    const testButton = panel.getByRole('button', { name: 'Test', exact: true });
    await panel.getByLabel('Password').fill('bob-password');
    const plain = `postgres://bob@127.0.0.1:${team.port}/desk`;

    await address.fill(plain);
    await testButton.click();
    await expect(feedback).toContainText(
      `The team database at 127.0.0.1:${team.port}/desk accepts encrypted connections only: add ?sslmode=verify-full&sslrootcert=…`,
    );

    await address.fill(`${plain}?sslmode=verify-full`);
    await testButton.click();
    await expect(feedback).toContainText('is not signed by a certificate authority this computer trusts');

    await address.fill(`${plain}?sslmode=sometimes`);
    await testButton.click();
    await expect(feedback).toContainText('sslmode=sometimes is not one Donation Desk knows');

    await address.fill(`${plain}?sslmode=verify-full&sslrootcert=${team.tls!.caFile}`);
    await testButton.click();
    await expect(feedback).toContainText('as bob, preparer and approver; encrypted (TLSv1.3).');
    await expect(feedback).toContainText('Nothing was changed');
  } finally {
    await app.stop();
  }
});
