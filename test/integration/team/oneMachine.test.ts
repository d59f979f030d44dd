import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDesk } from '../../../electron/services';
import type { MonthReport } from '../../../shared/contract/reconcileChannels';
import { startPgCluster, type PgCluster } from '../../support/pgCluster';
import { runCliProcess } from '../cliProcess';
import { giftsWorkspace, listeningDeskOf, type Desk, type Heard } from '../reconcile/harness';
import { startTeamComputers, type TeamComputers } from './teamComputers';

/*
 * Team mode tried on one machine, the walk of docs/guide/team-admin.md ("Trying team mode on one
 * machine") step by step: one emulator of the giving service on a loopback port (clock 60 times
 * faster, as `npm run emulator -- --time-scale 60`), one team database set up with `db init-team` and
 * the guide's own SQL for the three logins, and two data folders, alice's and bob's, each an app in
 * browser mode (`npm run web -- --data-dir …`) saved on Custom at http://127.0.0.1:PORT and connected
 * to the team database with its own login in Settings. alice submits, bob approves, alice's app
 * sends it, the emulator's clock is moved ten hours from bob's Settings, both read Reconcile again,
 * and both month reports are the same: in the app and from the command line on each data folder.
 *
 * What differs between two computers' reports, and only that: when each was made (generatedAt) and
 * last read from the service (lastRefreshAt), and for the upload, the workspace it came from (only on
 * alice's computer, where its rows are: bob's report gives it none) and who sent it from where
 * (sentElsewhere: named on bob's computer, null on alice's, who sent it).
 *
 * Unlike a person trying it, the test lets the emulator and the cluster choose free ports, and polls
 * the service every few hundred milliseconds; the team's news (LISTEN/NOTIFY) alone tells each app of
 * a submission or a decision (the approvals poll is an hour apart).
 */

const PASSWORDS = { alice: 'alice-pw', bob: 'bob-pw' } as const;
type Person = keyof typeof PASSWORDS;
const MONTH = new Date().toISOString().slice(0, 7);

let t: TeamComputers<PgCluster>;
let port: string;
const apps = new Map<Person, Desk & { heard: Heard }>();

const dataFolder = (who: Person) => t.folder(`desk-${who}`);
/** As in the guide: postgres://alice@127.0.0.1:5432/desk, the password typed in its own field. */
const teamAddress = (who: Person) => `postgres://${who}@127.0.0.1:${new URL(t.team.adminUrl).port}/desk`;

async function openApp(who: Person) {
  const dataDir = dataFolder(who);
  const runtime = await startDesk({
    mode: 'browser',
    dataDir,
    appVersion: 'test',
    assetsDir: dataDir,
    secretBox: null,
    openExternal: async () => undefined,
    env: {
      DONATION_DESK_POLL_MIN_MS: '200',
      DONATION_DESK_POLL_MAX_MS: '500',
      DONATION_DESK_APPROVALS_POLL_MS: '3600000',
      DONATION_DESK_RECONCILE_POLL_MS: '3600000',
    },
  });
  const app = listeningDeskOf(runtime);
  apps.set(who, app);
  return app;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Not seen within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What may differ between two computers' reports of one month (see above). */
function shared(report: MonthReport) {
  const { generatedAt, lastRefreshAt, uploads, ...rest } = report;
  void generatedAt;
  void lastRefreshAt;
  return {
    ...rest,
    uploads: uploads.map(({ workspaceId, sentElsewhere, ...u }) => {
      void workspaceId;
      void sentElsewhere;
      return u;
    }),
  };
}

beforeAll(async () => {
  // Step 1 (the shared service) and the empty cluster of step 2.
  t = await startTeamComputers({
    prefix: 'dd-one-machine-',
    cli: true,
    timeScale: 60,
    cluster: () => startPgCluster(),
  });
  port = new URL(t.emu.apiBaseUrl).port;
  expect(t.emu.apiBaseUrl).toBe(`http://127.0.0.1:${port}`);
  expect(t.emu.tokenUrl).toBe(`http://127.0.0.1:${port}/oauth2/token`);
  expect([t.emu.clientId, t.emu.clientSecret]).toEqual(['demo-client', 'demo-secret']);
}, 180_000);

afterAll(async () => {
  for (const app of apps.values()) await app.runtime.close();
  await t?.close();
});

describe('team mode tried on one machine, as the team admin’s guide walks it', () => {
  it('alice submits, bob approves, alice’s app sends it: both month reports are the same', async () => {
    // Step 2: the team database, set up with the real command and the guide's SQL.
    const init = await runCliProcess(
      t.cli,
      t.emu,
      ['db', 'init-team', '--url', t.team.adminUrl],
      t.folder('admin'),
    );
    expect(init.code, init.stderr).toBe(0);
    await t.team.query(`CREATE ROLE alice LOGIN PASSWORD 'alice-pw'; GRANT desk_preparer TO alice;
     CREATE ROLE bob LOGIN PASSWORD 'bob-pw'; GRANT desk_approver TO bob;
     CREATE ROLE carol LOGIN PASSWORD 'carol-pw'; GRANT desk_admin TO carol;`);

    // Step 3: two people, two data folders.
    const alice = await openApp('alice');
    const bob = await openApp('bob');

    for (const [who, app] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      // Step 4: Settings → Custom at the emulator on this computer; its clock is offered there.
      await app.call('settings.save', {
        environment: 'custom',
        remote: {
          id: 'custom',
          addresses: {
            baseUrl: `http://127.0.0.1:${port}`,
            tokenUrl: `http://127.0.0.1:${port}/oauth2/token`,
            programDomain: `127.0.0.1:${port}`,
          },
          clientId: 'demo-client',
          clientSecret: 'demo-secret',
        },
      });
      expect((await app.call('app.info', {})).environment).toMatchObject({ id: 'custom', emulated: false });
      await app.call('sandbox.clock', {});

      // Step 5: Settings → Team database, each with their own login.
      await app.call('settings.save', {
        teamDatabase: { address: teamAddress(who), password: PASSWORDS[who] },
      });
      const status = await app.call('team.status', {});
      expect(status).toMatchObject({
        mode: 'team',
        server: `127.0.0.1:${new URL(t.team.adminUrl).port}/desk`,
        login: who,
        reachable: true,
        rule: { approval: 'always' },
      });
    }
    await until(
      () => alice.runtime.news.listening() && bob.runtime.news.listening(),
      'both apps listening to the team database',
    );

    // Step 6: alice submits; bob's side bar counts it, told by the team database.
    const workspaceId = await giftsWorkspace(
      alice,
      [
        { recipient: t.good[0]!, amount: '125.00', currency: 'USD' },
        { recipient: t.good[1]!, amount: '40.00', currency: 'USD' },
        { recipient: t.good[2]!, amount: '9.99', currency: 'EUR' },
      ],
      { name: 'November gifts' },
    );
    const started = await alice.call('upload.start', { workspaceId });
    expect(started.upload.state).toBe('waiting-approval');
    await until(
      () =>
        bob.heard.some(
          (e) => e.name === 'approvals.changed' && (e.payload as { waiting: number }).waiting === 1,
        ),
      'Approvals 1 in bob’s side bar',
    );

    // Step 7: bob approves; alice's app hears it and sends it to the emulator, which processes it.
    const review = await bob.call('approvals.review', { uploadId: started.uploadId });
    await bob.call('approvals.decide', {
      uploadId: started.uploadId,
      decision: 'approve',
      fileSha256: review.fileSha256,
    });
    const aliceUpload = async () =>
      (await alice.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
    await until(async () => (await aliceUpload())?.state === 'processed', 'alice’s upload processed');
    expect((await aliceUpload())?.approval).toMatchObject({ state: 'sent', decidedBy: 'bob' });

    // Step 8: the emulator's clock ten hours on, from bob's Settings: every donation paid and cleared.
    await bob.call('sandbox.advanceClock', { seconds: 10 * 3600 });
    const reports = new Map<Person, MonthReport>();
    for (const [who, app] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      // Reconcile → Refresh from the service, then the month's report.
      await app.call('donations.list', { jobId: `refresh-${who}`, limit: 0 });
      reports.set(who, await app.call('donations.report', { month: MONTH, refresh: true }));
    }
    const [mine, theirs] = [reports.get('alice')!, reports.get('bob')!];
    expect(mine.uploads.map((u) => u.uploadId)).toEqual([started.uploadId]);
    expect(mine.lines.map((l) => [l.currencyCode, l.submitted.count, l.cleared.count])).toEqual([
      ['EUR', 1, 1],
      ['USD', 2, 2],
    ]);
    expect(mine.reconciled).toBe(true);
    expect(shared(theirs)).toEqual(shared(mine));
    expect(theirs.uploads[0]?.sentElsewhere).toMatchObject({ by: 'alice' });
    expect(mine.uploads[0]?.sentElsewhere ?? null).toBeNull();

    // And from the command line, on each data folder (the guide's commands, with each one's login).
    const cliReport = async (who: Person) => {
      const run = await runCliProcess(t.cli, t.emu, ['report', '--month', MONTH, '--json'], dataFolder(who), {
        env: { DONATION_DESK_DATABASE_URL: t.team.url(who, PASSWORDS[who]) },
      });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as MonthReport;
    };
    const [aliceJson, bobJson] = [await cliReport('alice'), await cliReport('bob')];
    expect(shared(bobJson)).toEqual(shared(aliceJson));
    expect(shared(aliceJson)).toEqual(shared(mine));
  }, 240_000);
});
