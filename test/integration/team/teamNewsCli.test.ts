import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../electron/cli/commands/approvals';
import '../../../electron/cli/commands/upload';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { TeamLogin } from '../../support/teamCluster';
import { runCliInProcess } from '../cliInProcess';
import { startTeamComputers, type TeamComputers } from './teamComputers';

/*
 * The command line's waits woken by the team database's news: bob's `approve --wait`, when alice's
 * computer sends, looks again only every ten minutes by itself; it ends as soon as alice's resume
 * has sent the upload, because the database told it so.
 */

let t: TeamComputers;

const as = (login: TeamLogin, args: string[], env: Record<string, string> = {}) =>
  runCliInProcess(t.emu, t.folder(login), args, {
    DONATION_DESK_DATABASE_URL: t.team.urlOf(login),
    DONATION_DESK_POLL_MIN_MS: '50',
    DONATION_DESK_POLL_MAX_MS: '300',
    ...env,
  });

beforeAll(async () => {
  t = await startTeamComputers({
    prefix: 'dd-news-cli-',
    rule: { approval: 'always', thresholds: {}, sender: 'preparer' },
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('waits woken by the team database', () => {
  it('bob’s approve --wait ends when alice’s computer has sent it, with no poll due for minutes', async () => {
    const file = await t.sheet('november.csv', [[t.good[0]!, '125.00', 'USD']]);
    const up = await as('alice', ['upload', file, '--json']);
    expect(up.code, up.err).toBe(4);
    const uploadId = (JSON.parse(up.out) as { uploadId: string }).uploadId;

    // Bob's own looks come ten minutes apart: only the notification can end his wait in time.
    const approving = as('bob', ['approve', uploadId, '--wait'], { DONATION_DESK_POLL_MIN_MS: '600000' });
    const bob = new PgTeamDatabase({ url: t.team.urlOf('bob') });
    try {
      const deadline = Date.now() + 30_000;
      while ((await bob.upload(uploadId))?.state !== 'approved') {
        if (Date.now() > deadline) throw new Error('bob’s approval never reached the team database');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await bob.close();
    }
    // Give bob's wait the time to sleep on its first (ten-minute) round.
    await new Promise((r) => setTimeout(r, 500));
    const resumed = await as('alice', ['resume']);
    expect(resumed.code, resumed.err).toBe(0);

    const approved = await Promise.race([
      approving,
      new Promise<null>((r) => setTimeout(() => r(null), 60_000).unref()),
    ]);
    expect(approved, 'approve --wait was not woken by the notification').not.toBeNull();
    expect(approved!.code, approved!.err).toBe(0);
    expect(approved!.out).toMatch(/Waiting for the preparer's computer to send it/);
    expect(approved!.out).toMatch(new RegExp(`Sent: alice sent it( from [^ ]+)? \\(upload ${uploadId}\\)`));
  }, 180_000);
});
