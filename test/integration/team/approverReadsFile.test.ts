import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../electron/cli/commands/approvals';
import type { DonationAttributes } from '../../../shared/donation';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import { gzipBulkFile } from '../../../electron/services/upload/compress';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { startTeamCluster, type TeamCluster, type TeamLogin } from '../../support/teamCluster';
import { runCliInProcess } from '../cliInProcess';

/*
 * Two computers and a lying declaration: alice, with her own login and no app (a modified client),
 * submits an upload whose declared totals say 5 × USD 1.00 and stores the file it names by its
 * SHA-256, which holds 5 × USD 999,999.00. Bob's computer reads the file itself: `approvals` shows
 * what it holds and the difference, `approve` refuses (exit 6), the upload still waits, and the
 * refusal is in the team's audit trail.
 */

let dir: string;
let emu: RunningEmulator;
let team: TeamCluster;

const folder = (login: TeamLogin) => join(dir, login);
const as = (login: TeamLogin, args: string[]) =>
  runCliInProcess(emu, folder(login), args, { DONATION_DESK_DATABASE_URL: team.urlOf(login) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-approver-reads-'));
  [emu, team] = await Promise.all([
    startEmulator({ port: 0, uploadPort: 0, timeScale: 200, quiet: true }),
    startTeamCluster(),
  ]);
  // The rule under which the preparer's computer stores the file with the submission today.
  const carol = new PgTeamDatabase({ url: team.urlOf('carol') });
  await carol.setRule({ approval: 'always', thresholds: {}, sender: 'approver' });
  await carol.close();
}, 120_000);

afterAll(async () => {
  closeDatabase(join(folder('bob'), 'data'));
  await emu?.close();
  await team?.stop();
  await rm(dir, { recursive: true, force: true });
});

const gift = (amount: number, i: number): DonationAttributes => ({
  destination: { recipientId: `840-20000000${i}` },
  funds: { paymentType: 'DONATION_REPORT', currencyCode: 'USD', amount, source: 'COMPANY' },
  donor: { fullName: `Donor ${i}`, receipted: false },
});

/** alice, as psql would: her own login, her own declaration, the bytes she chooses. */
async function aliceSubmits(declaredEach: number, fileEach: number): Promise<string> {
  const file = await gzipBulkFile(Array.from({ length: 5 }, (_, i) => gift(fileEach, i)));
  const alice = new PgTeamDatabase({ url: team.urlOf('alice'), computer: 'alice-laptop' });
  const id = randomUUID();
  try {
    await alice.submit({
      id,
      workspaceName: 'November',
      environment: 'offline',
      environmentKey: 'offline',
      computer: 'alice-laptop',
      fileSha256: file.sha256,
      rows: 5,
      totals: [{ currencyCode: 'USD', amount: 5 * declaredEach, count: 5 }],
      review: {
        month: '2026-11',
        largestRecipients: Array.from({ length: 5 }, (_, i) => ({
          recipientId: `840-20000000${i}`,
          currencyCode: 'USD',
          amount: declaredEach,
          count: 1,
        })),
        alreadyOut: 0,
        warnings: [],
      },
    });
    await alice.storeUploadFile(id, 0, file.gz);
  } finally {
    await alice.close();
  }
  return id;
}

const LIE =
  "The file holds 5 donations for USD 4,999,995.00; the preparer's app declared USD 5.00. Do not approve it: tell your desk admin.";

describe("the approver's computer reads the file, not the declaration", () => {
  it('shows what the file holds beside the lie, refuses to approve it (exit 6) and records why', async () => {
    const id = await aliceSubmits(1_00, 999_999_00);

    const listed = await as('bob', ['approvals']);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain('The file holds 5 donations: USD 4,999,995.00 (5 donations)');
    expect(listed.out).toContain("The preparer's app declared 5 donations: USD 5.00 (5 donations)");
    expect(listed.out).toContain(LIE);

    const json = await as('bob', ['approvals', '--json']);
    const record = (
      JSON.parse(json.out) as {
        approvals: Array<{ id: string; file: { totals: unknown; differences: string[] } }>;
      }
    ).approvals.find((a) => a.id === id)!;
    expect(record.file.totals).toEqual([{ currencyCode: 'USD', count: 5, amount: 499_999_500 }]);
    expect(record.file.differences).toEqual([LIE]);

    const approve = await as('bob', ['approve', id]);
    expect(approve.code).toBe(6);
    expect(approve.err).toContain(`Not approved: ${LIE}`);

    const check = await team.connect('carol');
    try {
      const state = await check.query<{ state: string }>('SELECT state FROM desk.upload WHERE id = $1', [id]);
      expect(state.rows[0]?.state).toBe('waiting');
      // Bob's computer copies its entry to the team's trail as each command ends.
      const audit = await check.query<{ person: string; details: { differences: string[] } }>(
        "SELECT person, details FROM desk.audit WHERE action = 'approval-blocked' AND upload_id = $1",
        [id],
      );
      expect(audit.rows.map((r) => r.person)).toContain('bob');
      expect(audit.rows[0]?.details.differences).toEqual([LIE]);
    } finally {
      await check.end();
    }
  });

  it('shows an honest file without a difference', async () => {
    const id = await aliceSubmits(25_00, 25_00);
    const json = await as('bob', ['approvals', '--json']);
    const record = (
      JSON.parse(json.out) as {
        approvals: Array<{ id: string; file: { checked: boolean; differences: string[] } }>;
      }
    ).approvals.find((a) => a.id === id)!;
    expect(record.file).toMatchObject({ checked: true, differences: [] });
  });
});
