import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { runCliProcess, type CliRun } from '../cliProcess';
import { bulkDonations } from '../upload/harness';
import { startTeamComputers, type TeamComputers } from './teamComputers';

/*
 * Two computers, one team database (issue 18, "the swapped file"): alice's upload of 3 × USD 1.00 is
 * approved by bob; then the file on alice's disk is replaced by one holding 3 × USD 999,999.00. What
 * alice's computer sends is the approved bytes stored in the team database, never the changed file.
 */

let t: TeamComputers;
const laptopA = () => t.folder('laptop-a');
const laptopB = () => t.folder('laptop-b');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  t = await startTeamComputers({ prefix: 'dd-swapped-', cli: true });
}, 180_000);

afterAll(async () => {
  await t?.close();
});

function as(login: 'alice' | 'bob', folder: string, args: string[]): Promise<CliRun> {
  return runCliProcess(t.cli, t.emu, args, folder, {
    env: { DONATION_DESK_DATABASE_URL: t.team.urlOf(login), DONATION_DESK_POLL_MAX_MS: '300' },
    timeoutMs: 120_000,
  });
}

describe('a file changed on disk after approval', () => {
  it('is never sent: the approved bytes stored in the team database go instead', async () => {
    const sheet = await t.sheet('march.csv', [
      [t.good[0]!, '1.00', 'USD'],
      [t.good[1]!, '1.00', 'USD'],
      [t.good[2]!, '1.00', 'USD'],
    ]);
    const waiting = await as('alice', laptopA(), ['upload', sheet, '--json']);
    expect(waiting.code, waiting.stderr).toBe(4);
    const { uploadId, approval } = JSON.parse(waiting.stdout) as {
      uploadId: string;
      approval: { fileSha256: string };
    };
    // Stored with the submission, whoever sends it.
    const bob = new PgTeamDatabase({ url: t.team.urlOf('bob') });
    try {
      const stored = await bob.fetchUploadFile(uploadId);
      expect(stored.map((f) => f.sha256)).toEqual([approval.fileSha256]);
    } finally {
      await bob.close();
    }
    const approved = await as('bob', laptopB(), ['approve', uploadId]);
    expect(approved.code, approved.stderr).toBe(0);

    // The file on alice's disk is swapped for one with the same rows at USD 999,999.00 each.
    const files = join(laptopA(), 'uploads', 'files');
    const name = (await readdir(files)).find((f) => f.startsWith(uploadId));
    expect(name).toBeDefined();
    const path = join(files, name!);
    const original = await readFile(path);
    expect(sha(original)).toBe(approval.fileSha256);
    const swapped = gzipSync(
      Buffer.from(
        gunzipSync(original)
          .toString('utf8')
          .replace(/"amount":\s*100\b/g, '"amount":99999900'),
      ),
    );
    expect(
      gunzipSync(swapped)
        .toString('utf8')
        .match(/99999900/g),
    ).toHaveLength(3);
    expect(sha(swapped)).not.toBe(approval.fileSha256);
    await writeFile(path, swapped);

    const resumed = await as('alice', laptopA(), ['resume', '--wait', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const upload = JSON.parse(resumed.stdout) as {
      state: string;
      intents: Array<{ state: string; serviceId: string }>;
    };
    expect(upload.state).toBe('processed');
    // What left is the approved file: on disk again, and at the service 3 × USD 1.00.
    expect(sha(await readFile(path))).toBe(approval.fileSha256);
    const donations = (await bulkDonations(t.emu, upload.intents[0]!.serviceId)) as unknown as Array<{
      attributes: Record<string, unknown>;
    }>;
    expect(donations).toHaveLength(3);
    expect(donations.map((d) => (d.attributes.funds as { amount: number }).amount)).toEqual([100, 100, 100]);
  }, 240_000);
});
