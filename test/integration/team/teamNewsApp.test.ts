import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk } from '../../../electron/services';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import {
  giftsWorkspace,
  listeningDeskOf,
  startSandbox,
  type Desk,
  type Heard,
  type Sandbox,
} from '../reconcile/harness';

/*
 * Two apps (not the command line) on one team database, with every poll an hour apart: alice's
 * submission reaches bob's side-bar count, and bob's approval reaches alice's Uploads, only because
 * the team database told each app at once. What the renderer hears is recorded from each event bus.
 */

let s: Sandbox;
let team: TeamCluster;
let bobDir: string;
const apps: Array<Desk & { heard: Heard }> = [];

async function openApp(login: TeamLogin, dataDir: string) {
  const runtime = await startDesk(
    {
      mode: 'browser',
      dataDir,
      appVersion: 'test',
      assetsDir: dataDir,
      secretBox: null,
      openExternal: async () => undefined,
      env: {
        DONATION_DESK_DATABASE_URL: team.urlOf(login),
        DONATION_DESK_APPROVALS_POLL_MS: '3600000',
        DONATION_DESK_RECONCILE_POLL_MS: '3600000',
        DONATION_DESK_POLL_MIN_MS: '3600000',
        DONATION_DESK_POLL_MAX_MS: '3600000',
        DONATION_DESK_CLIENT_ID: s.emu.clientId,
        DONATION_DESK_CLIENT_SECRET: s.emu.clientSecret,
      },
    },
    { overrides: { baseUrl: s.emu.apiBaseUrl, tokenUrl: s.emu.tokenUrl } },
  );
  const app = listeningDeskOf(runtime);
  apps.push(app);
  return app;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Not seen within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  [s, team] = await Promise.all([startSandbox(), startTeamCluster()]);
  const carol = new PgTeamDatabase({ url: team.urlOf('carol') });
  await carol.setRule({ approval: 'always', thresholds: {}, sender: 'preparer' });
  await carol.close();
  bobDir = await mkdtemp(join(tmpdir(), 'dd-news-bob-'));
}, 120_000);

afterAll(async () => {
  for (const app of apps) await app.runtime.close();
  closeDatabase(s.dataDir);
  closeDatabase(bobDir);
  await team?.stop();
  await s?.close();
  await rm(bobDir, { recursive: true, force: true });
});

describe('two apps hear the team’s news at once', () => {
  it('bob’s count shows alice’s submission; alice’s Uploads shows bob’s approval', async () => {
    const alice = await openApp('alice', s.dataDir);
    const bob = await openApp('bob', bobDir);
    await until(() => alice.runtime.news.listening() && bob.runtime.news.listening(), 'both listening');

    const workspaceId = await giftsWorkspace(alice, [
      { recipient: s.good[0]!, amount: '25.00', currency: 'USD' },
    ]);
    const started = await alice.call('upload.start', { workspaceId });
    expect(started.upload.state).toBe('waiting-approval');

    await until(
      () =>
        bob.heard.some(
          (e) => e.name === 'approvals.changed' && (e.payload as { waiting: number }).waiting === 1,
        ),
      'the side bar’s count at bob’s',
    );
    expect(bob.heard.some((e) => e.name === 'team.news')).toBe(true);

    const review = await bob.call('approvals.review', { uploadId: started.uploadId });
    await bob.call('approvals.decide', {
      uploadId: started.uploadId,
      decision: 'approve',
      fileSha256: review.fileSha256,
    });

    await until(
      () =>
        alice.heard.some(
          (e) =>
            e.name === 'team.news' &&
            (e.payload as { kind: string; uploadId: string }).uploadId === started.uploadId &&
            (e.payload as { kind: string }).kind === 'approved',
        ),
      'the approval told to alice’s app',
    );
    // By the time the renderer hears it, alice's Uploads already shows the upload as approved.
    const listed = (await alice.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
    expect(listed?.state).not.toBe('waiting-approval');
    expect(listed?.approval?.state).toMatch(/approved|sent/);
  }, 120_000);
});
