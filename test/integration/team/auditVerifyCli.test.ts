import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from '@photostructure/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../../electron/cli/commands/audit';
import { AuditStore } from '../../../electron/services/audit/auditStore';
import { closeDatabase, DeskDatabase } from '../../../electron/services/db/deskDatabase';
import { startEmulator, type RunningEmulator } from '../../../emulator/server';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import { runCliInProcess } from '../cliInProcess';

/*
 * `donation-desk audit verify` in team mode: the data folder's own trail is checked as alone (and
 * the team's beside it, when team mode can check it), and an outside edit of desk.db is named there
 * too, with exit 1.
 */

let dir: string;
let emu: RunningEmulator;
let team: TeamCluster;

const dataDir = () => join(dir, 'data');
const verify = (...args: string[]) =>
  runCliInProcess(emu, dir, ['audit', 'verify', ...args], {
    DONATION_DESK_DATABASE_URL: team.urlOf('alice'),
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dd-audit-verify-team-'));
  [emu, team] = await Promise.all([
    startEmulator({ port: 0, uploadPort: 0, timeScale: 200, quiet: true }),
    startTeamCluster(),
  ]);
  const db = DeskDatabase.open(dataDir());
  try {
    const store = new AuditStore(db);
    for (let n = 1; n <= 5; n++) {
      store.insert({
        at: `2026-11-03T14:2${n}:00.000Z`,
        person: 'alice',
        computer: 'alice-laptop',
        environment: 'offline',
        action: 'edit',
        workspaceId: 'ws-1',
        details: { version: n },
      });
    }
  } finally {
    db.close();
  }
}, 120_000);

afterAll(async () => {
  closeDatabase(dataDir());
  await emu?.close();
  await team?.stop();
  await rm(dir, { recursive: true, force: true });
});

type Trails = { whole: boolean; trails: Array<{ trail: string; whole: boolean; firstBroken?: unknown }> };

describe('donation-desk audit verify with a team database in force', () => {
  it('checks the data folder’s trail, whole, with exit 0', async () => {
    const run = await verify('--json');
    expect(run.code, run.err).toBe(0);
    const { whole, trails } = JSON.parse(run.out) as Trails;
    expect(whole).toBe(true);
    expect(trails[0]).toMatchObject({ trail: 'folder', whole: true });
    // The team's is checked beside it, and whole as well.
    expect(trails.map((t) => t.trail)).toEqual(['folder', 'team']);
    expect(trails[1]).toMatchObject({ trail: 'team', whole: true });
  }, 60_000);

  it('names an entry of the team’s trail that a superuser changed, with exit 1', async () => {
    // alice's own login writes two entries, as her app does.
    const alice = await team.connect('alice');
    for (const n of [1, 2]) {
      await alice.query(
        "INSERT INTO desk.audit (computer, environment, action, details, origin, origin_seq) VALUES ('alice-laptop', 'offline', 'import', $1, 'folder-alice-verify', $2)",
        [JSON.stringify({ file: `march-${n}.xlsx` }), n],
      );
    }
    const before = await verify('--json');
    expect(JSON.parse(before.out).trails[1], before.err).toMatchObject({ trail: 'team', whole: true });
    // The server's superuser rewrites the first of them, around every rule the desk set.
    const { rows } = await team.query<{ seq: string }>(
      "SELECT seq FROM desk.audit WHERE origin = 'folder-alice-verify' ORDER BY seq LIMIT 1",
    );
    const seq = Number(rows[0]?.seq);
    await team.query('ALTER TABLE desk.audit DISABLE TRIGGER USER');
    await team.query(`UPDATE desk.audit SET details = '{"file":"april.xlsx"}' WHERE seq = $1`, [seq]);
    await team.query('ALTER TABLE desk.audit ENABLE TRIGGER USER');
    const run = await verify('--json');
    expect(run.code, run.err).toBe(1);
    const { trails } = JSON.parse(run.out) as Trails;
    expect(trails[1]).toMatchObject({ trail: 'team', whole: false, firstBroken: { seq } });
    const words = await verify();
    expect(words.out).toContain(`The team’s audit trail is broken at entry ${seq.toLocaleString('en')}`);
  }, 60_000);

  it('names an entry of the data folder changed from outside the app, with exit 1', async () => {
    closeDatabase(dataDir());
    const raw = new DatabaseSync(join(dataDir(), 'desk.db'));
    try {
      raw.exec('DROP TRIGGER audit_no_update');
      raw.exec("UPDATE audit SET computer = 'bob-laptop' WHERE seq = 2");
    } finally {
      raw.close();
    }
    const run = await verify();
    expect(run.code, run.err).toBe(1);
    expect(run.out).toContain(
      'The data folder’s audit trail is broken at entry 2 (2026-11-03 14:22 UTC): its content was changed after it was written.',
    );
  }, 60_000);
});
