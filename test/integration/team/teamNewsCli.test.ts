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
 * has sent the upload, because the database told it so. Likewise alice's `upload --wait` and
 * `resume --wait`, which ask about bob's decision only every ten minutes by themselves
 * (DONATION_DESK_APPROVALS_POLL_MS): they send and follow it as soon as the database tells them.
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

  it('alice’s upload --wait sends it as soon as bob approves, with no look at the decision due for minutes', async () => {
    const file = await t.sheet('december.csv', [[t.good[1]!, '60.00', 'USD']]);
    const uploading = as('alice', ['upload', file, '--wait', '--json'], TEN_MINUTES_TO_A_DECISION);
    const uploadId = await waitingUpload('december');
    await listeningAs('alice');
    const decidedAt = await approveAsBob(uploadId);

    const run = await orNullAfter(uploading, 60_000);
    expect(run, 'upload --wait was not woken by the notification').not.toBeNull();
    expect(Date.now() - decidedAt).toBeLessThan(600_000);
    expect(run!.code, run!.err).toBe(0);
    expect(JSON.parse(run!.out)).toMatchObject({
      uploadId,
      state: 'processed',
      approval: { state: 'sent', decidedBy: 'bob' },
    });
  }, 180_000);

  it('alice’s resume --wait sends it as soon as bob approves, with no look at the decision due for minutes', async () => {
    const file = await t.sheet('january.csv', [[t.good[2]!, '15.00', 'EUR']]);
    const up = await as('alice', ['upload', file, '--json']);
    expect(up.code, up.err).toBe(4);
    const uploadId = (JSON.parse(up.out) as { uploadId: string }).uploadId;
    const resuming = as('alice', ['resume', '--wait'], TEN_MINUTES_TO_A_DECISION);
    await listeningAs('alice');
    const decidedAt = await approveAsBob(uploadId);

    const run = await orNullAfter(resuming, 60_000);
    expect(run, 'resume --wait was not woken by the notification').not.toBeNull();
    expect(Date.now() - decidedAt).toBeLessThan(600_000);
    expect(run!.code, run!.err).toBe(0);
    expect(run!.out).toMatch(new RegExp(`Upload ${uploadId} of “january”: processed, 1 row`));
  }, 180_000);
});

/** Alice's computer asks about a decision only every ten minutes; the service is followed quickly. */
const TEN_MINUTES_TO_A_DECISION = { DONATION_DESK_APPROVALS_POLL_MS: '600000' };

const orNullAfter = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms).unref())]);

/** The id of the upload of this workspace once it waits in the team database. */
async function waitingUpload(workspaceName: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await t.team.query<{ id: string }>(
      "SELECT id FROM desk.upload WHERE workspace_name = $1 AND state = 'waiting'",
      [workspaceName],
    );
    if (found.rows[0]) return found.rows[0].id;
    if (Date.now() > deadline) throw new Error(`no upload of ${workspaceName} waits`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Until the login's computer listens to the team's news (its connection named for it). */
async function listeningAs(login: TeamLogin): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await t.team.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1 AND application_name = 'Donation Desk news'",
      [login],
    );
    if (Number(found.rows[0]?.n) > 0) break;
    if (Date.now() > deadline) throw new Error(`${login}'s computer never listened`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Its LISTEN follows the connection at once; then the wait sleeps on its first round.
  await new Promise((r) => setTimeout(r, 500));
}

/** Bob approves in the team database (as his app does); answers when. */
async function approveAsBob(uploadId: string): Promise<number> {
  const bob = new PgTeamDatabase({ url: t.team.urlOf('bob') });
  try {
    const record = await bob.upload(uploadId);
    await bob.decide(uploadId, 'approve', record!.fileSha256, null);
    return Date.now();
  } finally {
    await bob.close();
  }
}
