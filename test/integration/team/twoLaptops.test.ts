import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk, type DeskRuntime } from '../../../electron/services';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import {
  dispatch,
  type ChannelInput,
  type ChannelName,
  type ChannelResponse,
} from '../../../shared/contract';
import { DeskFailure } from '../../../shared/result';
import { startPgCluster, type PgCluster } from '../../support/pgCluster';
import { runCliProcess, type CliRun } from '../cliProcess';
import { startTeamComputers, type TeamComputers } from './teamComputers';

/*
 * Two laptops, one team database: two data folders, two PostgreSQL logins (alice prepares, bob
 * approves) on a throwaway cluster set up as `db init-team` does, the real CLI as a process against
 * the emulator. Maker-checker end to end: A's upload waits; A may not approve it; B approves; A sends
 * it; B cannot send the same rows again; an edit after approval voids it; the team's audit trail
 * lists every step with who and when.
 */

let t: TeamComputers<PgCluster>;
const PASSWORDS = { alice: 'alice-password', bob: 'bob-password' } as const;
const urlOf = (login: 'alice' | 'bob') => t.team.url(login, PASSWORDS[login]);

const laptopA = () => t.folder('laptop-a');
const laptopB = () => t.folder('laptop-b');

beforeAll(async () => {
  // An empty cluster: the team's admin sets it up below with the real command.
  t = await startTeamComputers({ prefix: 'dd-two-laptops-', cli: true, cluster: () => startPgCluster() });
  // The team's admin sets the empty database up with the real command, then gives each person a
  // login: alice prepares; bob approves, and prepares too (he tries to send the same rows later).
  const init = await runCliProcess(
    t.cli,
    t.emu,
    ['db', 'init-team', '--url', t.team.adminUrl],
    t.folder('admin'),
  );
  expect(init.code, init.stderr).toBe(0);
  expect(init.stdout).toContain('CREATE ROLE');
  await t.team.createLogin('alice', PASSWORDS.alice, ['desk_preparer']);
  await t.team.createLogin('bob', PASSWORDS.bob, ['desk_preparer', 'desk_approver']);
}, 180_000);

afterAll(async () => {
  await t?.close();
});

function as(login: 'alice' | 'bob', folder: string, args: string[]): Promise<CliRun> {
  return runCliProcess(t.cli, t.emu, args, folder, {
    env: { DONATION_DESK_DATABASE_URL: urlOf(login), DONATION_DESK_POLL_MAX_MS: '300' },
    timeoutMs: 120_000,
  });
}

describe('two laptops on one team database', () => {
  let novemberFile: string;
  let uploadId: string;

  it('A uploads: recorded, built, hashed and waiting for approval (exit 4); nothing is sent', async () => {
    novemberFile = await t.sheet('november.csv', [
      [t.good[0]!, '125.00', 'USD'],
      [t.good[1]!, '40.00', 'USD'],
      [t.good[2]!, '9.99', 'EUR'],
    ]);
    const run = await as('alice', laptopA(), ['upload', novemberFile, '--json']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^Waiting for approval: upload [0-9a-f-]{36} /m);
    const printed = JSON.parse(run.stdout) as {
      uploadId: string;
      state: string;
      intents: unknown[];
      approval: { state: string; fileSha256: string; preparer: string };
    };
    uploadId = printed.uploadId;
    expect(printed.state).toBe('waiting-approval');
    expect(printed.intents).toEqual([]);
    expect(printed.approval).toMatchObject({ state: 'waiting', preparer: 'alice' });

    // The team's record is the same file (one part: its gzip file's own hash) with what bob reviews.
    const bob = new PgTeamDatabase({ url: urlOf('bob') });
    try {
      const record = await bob.upload(uploadId);
      expect(record).toMatchObject({
        state: 'waiting',
        preparer: 'alice',
        rows: 3,
        fileSha256: printed.approval.fileSha256,
        totals: expect.arrayContaining([
          { currencyCode: 'USD', amount: 16_500, count: 2 },
          { currencyCode: 'EUR', amount: 999, count: 1 },
        ]) as unknown,
      });
      expect(record?.review.largestRecipients[0]).toEqual({
        recipientId: t.good[0],
        currencyCode: 'USD',
        amount: 12_500,
        count: 1,
      });
      expect(record?.review.month).toBe(new Date().toISOString().slice(0, 7));
    } finally {
      await bob.close();
    }
  }, 120_000);

  it('A may not approve their own upload: the database refuses (exit 1)', async () => {
    const run = await as('alice', laptopA(), ['approve', uploadId]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toMatch(/refused/i);
    const listed = await as('alice', laptopA(), ['approvals', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const { approvals } = JSON.parse(listed.stdout) as { approvals: Array<{ id: string; state: string }> };
    expect(approvals.find((a) => a.id === uploadId)?.state).toBe('waiting');
  }, 60_000);

  it('while it waits, resume on A sends nothing and still exits 4', async () => {
    const run = await as('alice', laptopA(), ['resume', '--json']);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toContain(`Waiting for approval: upload ${uploadId}`);
  }, 60_000);

  it('B approves (exit 0); then A’s resume --wait sends it and follows it to PROCESSED', async () => {
    const approved = await as('bob', laptopB(), [
      'approve',
      uploadId,
      '--reason',
      'Matches the November list',
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved upload ${uploadId}`);

    const resumed = await as('alice', laptopA(), ['resume', '--wait', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const upload = JSON.parse(resumed.stdout) as {
      uploadId: string;
      state: string;
      approval: { state: string; decidedBy: string; reason: string };
      intents: Array<{ state: string }>;
    };
    expect(upload.uploadId).toBe(uploadId);
    expect(upload.state).toBe('processed');
    expect(upload.approval).toMatchObject({
      state: 'sent',
      decidedBy: 'bob',
      reason: 'Matches the November list',
    });
    expect(upload.intents.map((i) => i.state)).toEqual(['PROCESSED']);
  }, 120_000);

  it('B uploads the same rows: refused as already sent by alice (exit 1), nothing recorded to send', async () => {
    const run = await as('bob', laptopB(), ['upload', novemberFile]);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stderr).toMatch(
      /3 rows were already sent \(for example row 2 by alice on \d{4}-\d\d-\d\d \(upload /,
    );
    expect(run.stderr).toContain(uploadId);
  }, 60_000);

  it('upload --wait waits for the decision, then sends and follows it (exit 0)', async () => {
    const october = await t.sheet('october.csv', [[t.good[4]!, '15.00', 'USD']]);
    const waiting = as('alice', laptopA(), ['upload', october, '--wait', '--json']);
    let id: string | undefined;
    for (let tries = 0; !id && tries < 100; tries++) {
      const listed = await as('bob', laptopB(), ['approvals', '--json']);
      const { approvals } = JSON.parse(listed.stdout) as {
        approvals: Array<{ id: string; workspaceName: string }>;
      };
      id = approvals.find((a) => a.workspaceName === 'october')?.id;
    }
    expect(id).toBeDefined();
    const approved = await as('bob', laptopB(), ['approve', id!]);
    expect(approved.code, approved.stderr).toBe(0);
    const run = await waiting;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Upload ${id} waits for an approver`);
    expect(JSON.parse(run.stdout)).toMatchObject({
      uploadId: id,
      state: 'processed',
      approval: { state: 'sent', decidedBy: 'bob' },
    });
  }, 120_000);

  it('a rejected upload is never sent: A’s resume stops it with bob’s reason (exit 1)', async () => {
    const september = await t.sheet('september.csv', [[t.good[5] ?? t.good[0]!, '77.00', 'GBP']]);
    const waiting = await as('alice', laptopA(), ['upload', september, '--json']);
    expect(waiting.code, waiting.stderr).toBe(4);
    const id = (JSON.parse(waiting.stdout) as { uploadId: string }).uploadId;
    const noReason = await as('bob', laptopB(), ['reject', id]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const rejected = await as('bob', laptopB(), ['reject', id, '--reason', 'Not in this month’s plan']);
    expect(rejected.code, rejected.stderr).toBe(0);

    const resumed = await as('alice', laptopA(), ['resume']);
    expect(resumed.code, resumed.stdout).toBe(1);
    expect(resumed.stdout).toContain(`Upload ${id} of “september”: stopped`);
    expect(resumed.stdout).toContain('Stopped: Approval rejected by bob: Not in this month’s plan');
  }, 120_000);

  describe('an edit after approval', () => {
    let runtime: DeskRuntime;
    let secondId: string;

    async function call<C extends ChannelName>(
      channel: C,
      input: ChannelInput<C>,
    ): Promise<ChannelResponse<C>> {
      const result = await dispatch(runtime.services, channel, input, { transport: 'test' });
      if (!result.ok) throw new DeskFailure(result.error.code, result.error.message, result.error.details);
      return result.value as ChannelResponse<C>;
    }

    afterAll(async () => {
      await runtime?.close();
    });

    it('voids the approval: the team record is void and A’s upload is stopped, never sent', async () => {
      const december = await t.sheet('december.csv', [[t.good[3]!, '60.00', 'USD']]);
      const waiting = await as('alice', laptopA(), ['upload', december, '--json']);
      expect(waiting.code, waiting.stderr).toBe(4);
      secondId = (JSON.parse(waiting.stdout) as { uploadId: string }).uploadId;

      // Laptop A's app (the runtime services; the CLI has no edit command) is open while bob approves.
      // It asks the database again only after a minute, so the edit below lands before it would send.
      runtime = await startDesk(
        {
          mode: 'cli',
          dataDir: laptopA(),
          appVersion: 'test',
          assetsDir: laptopA(),
          secretBox: null,
          openExternal: async () => undefined,
          identity: { person: () => 'alice', computer: () => 'laptop-a' },
          env: {
            DONATION_DESK_CLIENT_ID: t.emu.clientId,
            DONATION_DESK_CLIENT_SECRET: t.emu.clientSecret,
            DONATION_DESK_DATABASE_URL: urlOf('alice'),
            DONATION_DESK_POLL_MIN_MS: '60000',
            DONATION_DESK_POLL_MAX_MS: '120000',
          },
        },
        { overrides: { baseUrl: t.emu.apiBaseUrl, tokenUrl: t.emu.tokenUrl } },
      );
      const before = (await call('upload.list', {})).find((u) => u.uploadId === secondId);
      expect(before?.state).toBe('waiting-approval');
      const approved = await as('bob', laptopB(), ['approve', secondId]);
      expect(approved.code, approved.stderr).toBe(0);
      const workspace = await call('workspace.open', { id: before!.workspaceId });
      await call('workspace.edit', {
        id: workspace.id,
        baseVersion: workspace.version,
        edits: [{ op: 'set', key: 1, column: 1, value: '600.00' }],
      });

      const after = (await call('upload.list', {})).find((u) => u.uploadId === secondId)!;
      expect(after.state).toBe('stopped');
      expect(after.stoppedReason).toMatch(/^Approval void: the workspace was edited after it was submitted/);
      expect(after.intents).toEqual([]);
      const alice = runtime.team.current()!;
      expect(await alice.upload(secondId)).toMatchObject({ state: 'void', decidedBy: 'bob' });
      // And the database will not let it out any more, whatever a client says.
      await expect(alice.markSent(secondId, after.approval!.fileSha256)).rejects.toThrow();
    }, 120_000);
  });

  it('the team’s audit trail lists every step with who (alice, bob) and when', async () => {
    const out = join(t.dir, 'trail.csv');
    const run = await as('bob', laptopB(), ['audit', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("of the team's audit trail");

    const json = await as('alice', laptopA(), ['audit', '--upload', uploadId, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const { entries } = JSON.parse(json.stdout) as {
      entries: Array<{ at: string; person: string; action: string; details: Record<string, unknown> }>;
    };
    const steps = entries
      .slice()
      .reverse()
      .map((e) => `${e.person} ${e.action}${e.details.outcome ? ` ${String(e.details.outcome)}` : ''}`);
    expect(steps).toEqual(['alice submit', 'alice upload waiting-approval', 'bob approve', 'alice send']);
    for (const e of entries) expect(Date.parse(e.at)).not.toBeNaN();

    const csv = await readFile(out, 'utf8');
    // Every step of both uploads, from both laptops, with the person the database knows.
    for (const [person, action] of [
      ['alice', 'Imported a file'],
      ['alice', 'Submitted for approval'],
      ['alice', 'Built an upload for approval'],
      ['bob', 'Approved an upload'],
      ['alice', 'Sent'],
      ['alice', 'Edited cells'],
      ['alice', 'Approval void'],
    ] as const) {
      expect(csv, `${person}: ${action}`).toMatch(
        new RegExp(`${person}[^\\n]*${action}|${action}[^\\n]*${person}`),
      );
    }
    // bob's refused upload of the same rows is in the trail too.
    expect(csv).toMatch(/bob[^\n]*Refused: 3 rows were already sent/);
  }, 120_000);
});

describe('a laptop connected to the team in Settings', () => {
  it('runs its commands on that team database too (the password from PGPASSWORD), and never alone without it', async () => {
    // What Settings → Team database leaves on disk where the password cannot be kept (no key store):
    // the address in plain, no password. Commands must not quietly work alone over it.
    const folder = t.folder('laptop-c');
    await mkdir(folder, { recursive: true });
    const address = urlOf('bob').replace(`:${PASSWORDS.bob}@`, '@');
    expect(address).not.toContain(PASSWORDS.bob);
    await writeFile(join(folder, 'settings.json'), JSON.stringify({ teamDatabase: { address } }));

    const withPassword = await runCliProcess(t.cli, t.emu, ['approvals', '--all', '--json'], folder, {
      env: { PGPASSWORD: PASSWORDS.bob },
    });
    expect(withPassword.code, withPassword.stderr).toBe(0);
    // Alone, `approvals` exits 2 ("no team database"): a list means the team database answered.
    expect(Array.isArray((JSON.parse(withPassword.stdout) as { approvals: unknown }).approvals)).toBe(true);

    const without = await runCliProcess(t.cli, t.emu, ['approvals', '--json'], folder);
    expect(without.code, without.stdout).toBe(3);
    expect(`${without.stderr}${without.stdout}`).toMatch(
      /asks for a password and none was given.*PGPASSWORD/,
    );

    // An upload without the password is refused before anything is recorded or sent.
    const file = await t.sheet('laptop-c.csv', [[t.good[0] as string, '12.00', 'USD']]);
    const upload = await runCliProcess(t.cli, t.emu, ['upload', file], folder);
    expect(upload.code, upload.stderr).toBe(3);
    const resumed = await runCliProcess(t.cli, t.emu, ['resume', '--json'], folder);
    expect(JSON.parse(resumed.stdout || '{"uploads":[]}')).toMatchObject({ uploads: [] });
  }, 120_000);
});
