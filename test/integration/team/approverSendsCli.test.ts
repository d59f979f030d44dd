import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../electron/cli/commands/approvals';
import '../../../electron/cli/commands/upload';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { TeamLogin } from '../../support/teamCluster';
import { runCliInProcess } from '../cliInProcess';
import { startTeamComputers, type TeamComputers } from './teamComputers';

/*
 * The approver sends, from the command line: alice's `upload` waits (exit 4); bob's `approve --wait`
 * sends it from his data folder and follows it to the end; `resume` on alice's computer sends
 * nothing and says who sent it; bob's `resume` picks up an upload he approved elsewhere.
 */

let t: TeamComputers;

const as = (login: TeamLogin, args: string[]) =>
  runCliInProcess(t.emu, t.folder(login), args, {
    DONATION_DESK_DATABASE_URL: t.team.urlOf(login),
    DONATION_DESK_POLL_MIN_MS: '50',
    DONATION_DESK_POLL_MAX_MS: '300',
  });

beforeAll(async () => {
  t = await startTeamComputers({
    prefix: 'dd-approver-cli-',
    rule: { approval: 'always', thresholds: {}, sender: 'approver' },
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the approver sends, from the command line', () => {
  it('alice uploads (waits), bob approves and sends with --wait, alice’s resume sends nothing', async () => {
    const file = await t.sheet('november.csv', [
      [t.good[0]!, '125.00', 'USD'],
      [t.good[1]!, '40.00', 'USD'],
    ]);
    const up = await as('alice', ['upload', file, '--json']);
    expect(up.code, up.err).toBe(4);
    expect(up.err).toMatch(/the approver’s computer sends it/);
    const uploadId = (JSON.parse(up.out) as { uploadId: string }).uploadId;

    const listed = await as('bob', ['approvals']);
    expect(listed.out).toMatch(new RegExp(`${uploadId} +waiting .*; sent by the approver`));
    const approved = await as('bob', ['approve', uploadId, '--wait']);
    expect(approved.code, approved.err).toBe(0);
    expect(approved.out).toMatch(/The team's rule says the approver sends it: sending it from this computer/);
    expect(approved.out).toMatch(new RegExp(`Upload ${uploadId} of “november”: processed, 2 rows`));

    const resumed = await as('alice', ['resume', '--wait']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toMatch(/sent by bob( from [^,]+)?, not from this computer/);
    expect(resumed.out).toMatch(new RegExp(`Upload ${uploadId} of “november”: processed`));
    // One bulk at the service for it: bob's, followed on both computers.
    const bulks = await t.team.query<{ n: string }>(
      'SELECT count(*) AS n FROM desk.sent_bulk WHERE upload_id = $1',
      [uploadId],
    );
    expect(Number(bulks.rows[0]?.n)).toBe(1);
    const aliceJson = await as('alice', ['resume', '--json']);
    const view = JSON.parse(aliceJson.out) as { intents: Array<{ serviceId: string }> };
    expect(view.intents).toHaveLength(1);
  }, 180_000);

  it('bob’s resume picks up an upload he approved and is to send', async () => {
    const file = await t.sheet('december.csv', [[t.good[2]!, '9.99', 'EUR']]);
    const up = await as('alice', ['upload', file, '--json']);
    expect(up.code, up.err).toBe(4);
    const uploadId = (JSON.parse(up.out) as { uploadId: string }).uploadId;
    const bob = new PgTeamDatabase({ url: t.team.urlOf('bob') });
    try {
      const record = await bob.upload(uploadId);
      await bob.decide(uploadId, 'approve', record!.fileSha256, null);
    } finally {
      await bob.close();
    }
    const resumed = await as('bob', ['resume', '--wait']);
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.out).toMatch(new RegExp(`Upload ${uploadId} of “december”: processed, 1 row`));
  }, 180_000);
});
