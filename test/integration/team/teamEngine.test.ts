import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, databaseOf } from '../../../electron/services/db/deskDatabase';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import {
  createWorkspace,
  driveToEnd,
  expectFailure,
  makeRows,
  openDesk,
  startEmu,
  type Desk,
  type Emu,
} from '../upload/harness';

/*
 * The upload engine and the audit outbox in team mode, in process, against a real cluster and the
 * emulator: what the two-laptop CLI test does not reach (a rule that asks for no approval, a repair
 * after a partial extraction, a server that cannot be reached).
 */

let h: Emu;
let team: TeamCluster;
let carol: PgTeamDatabase;
let desk: Desk | null = null;

beforeAll(async () => {
  [h, team] = await Promise.all([startEmu(), startTeamCluster()]);
  carol = new PgTeamDatabase({ url: team.urlOf('carol') });
}, 120_000);
afterAll(async () => {
  await carol?.close();
  closeDatabase(h.dataDir);
  await h?.close();
  await team?.stop();
});
afterEach(async () => {
  await desk?.desk.close();
  desk = null;
  await h.faults({ reset: true });
  await carol.setRule({ approval: 'always', thresholds: {} });
});

/** An address where no server listens (the cluster's port plus one is not taken by it). */
const nowhere = () => team.urlOf('alice').replace(`:${team.port}/`, ':1/');

const as = (url: string) => openDesk(h, { env: { DONATION_DESK_DATABASE_URL: url } });

describe('uploads on a team database', () => {
  it('go out at once when the team’s rule asks for no approval, still through the shared guard', async () => {
    await carol.setRule({ approval: 'never', thresholds: {} });
    desk = await as(team.urlOf('alice'));
    const id = await createWorkspace(desk, makeRows(h.recipients, 4, 500));
    const started = await desk.call('upload.start', { workspaceId: id });
    expect(started.upload.state).not.toBe('waiting-approval');
    expect(started.upload.approval).toMatchObject({ state: 'sent', decidedBy: null, preparer: 'alice' });
    const end = await driveToEnd(h, desk, started.upload.intents.at(-1)!.intentId);
    expect(end.state).toBe('PROCESSED');
    expect(await carol.upload(started.uploadId)).toMatchObject({ state: 'sent', sentBy: 'alice', rows: 4 });

    // The same rows again, from this computer: the local guard and the shared one both know them.
    const again = await createWorkspace(desk, makeRows(h.recipients, 4, 500));
    const refused = await expectFailure(desk.call('upload.start', { workspaceId: again }));
    expect(refused.code).toBe('DUPLICATES');
  }, 60_000);

  it('repairs after a partial extraction: the failed upload’s own claims do not block the resend', async () => {
    await carol.setRule({ approval: 'never', thresholds: {} });
    await h.faults({ partialExtractionFailure: { afterDonations: 3 } });
    desk = await as(team.urlOf('alice'));
    const id = await createWorkspace(desk, makeRows(h.recipients, 7, 700));
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)!.intentId;
    const end = await driveToEnd(h, desk, intentId);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(3);
    // The 4 rows that got no donation are given back to the team; the 3 that did stay out.
    const claims = async () =>
      (
        await team.query<{ live: string; released: string }>(
          `SELECT count(*) FILTER (WHERE released_at IS NULL) AS live,
                  count(*) FILTER (WHERE released_at IS NOT NULL) AS released
           FROM desk.sent_row WHERE upload_id = $1`,
          [started.uploadId],
        )
      ).rows[0];
    await expect.poll(claims).toEqual({ live: '3', released: '4' });
    const given = (await carol.audit.all({ uploadId: started.uploadId })).filter(
      (e) => e.action === 'release-rows',
    );
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({ person: 'alice', details: { releasedRows: 4 } });

    await h.faults({ partialExtractionFailure: null });
    const resent = await desk.call('upload.resend', { intentId });
    expect(resent.upload.rows).toBe(4);
    expect(resent.upload.approval?.state).toBe('sent');
    expect((await driveToEnd(h, desk, resent.upload.intents.at(-1)!.intentId)).state).toBe('PROCESSED');
    expect(await carol.upload(resent.uploadId)).toMatchObject({ state: 'sent', rows: 4 });
  }, 60_000);

  it('while the server cannot be reached: the preview still answers, the upload is refused plainly and nothing is sent', async () => {
    desk = await as(nowhere());
    const id = await createWorkspace(desk, makeRows(h.recipients, 2, 900));
    const preview = await desk.call('upload.preview', { workspaceId: id });
    expect(preview.valid).toBe(2);
    const before = (await desk.call('upload.list', {})).length;
    const refused = await expectFailure(desk.call('upload.start', { workspaceId: id }));
    expect(refused.code).toBe('TEAM_UNREACHABLE');
    expect(refused.message).toMatch(/cannot be reached/);
    expect(await desk.call('upload.list', {})).toHaveLength(before);
  }, 60_000);
});

describe('following across the team', () => {
  it('leaves a bulk another computer follows alone until that computer’s lease is released', async () => {
    await carol.setRule({ approval: 'never', thresholds: {} });
    desk = await openDesk(h, {
      env: {
        DONATION_DESK_DATABASE_URL: team.urlOf('alice'),
        DONATION_DESK_POLL_MIN_MS: '800',
        DONATION_DESK_POLL_MAX_MS: '800',
      },
    });
    const id = await createWorkspace(desk, makeRows(h.recipients, 2, 990));
    const started = await desk.call('upload.start', { workspaceId: id });
    const intent = started.upload.intents.at(-1)!;
    expect(intent.state).toBe('UPLOADED');
    // Another computer of the team follows this bulk now (before this one's first poll is due).
    const other = new PgTeamDatabase({ url: team.urlOf('bob'), computer: 'laptop-b' });
    const key = `follow:${intent.serviceId}`;
    try {
      expect(await other.lease(key, 'laptop-b/1', 60_000)).toBe(true);
      await h.emu.advance(600);
      await new Promise((r) => setTimeout(r, 2_000));
      expect((await desk.call('upload.get', { intentId: intent.intentId })).state).toBe('UPLOADED');

      await other.releaseLease(key, 'laptop-b/1');
      let state = 'UPLOADED';
      for (let i = 0; i < 40 && state !== 'PROCESSED'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        await h.emu.advance(120);
        state = (await desk.call('upload.get', { intentId: intent.intentId })).state;
      }
      expect(state).toBe('PROCESSED');
      // Done: this computer let its own lease go.
      expect(await other.lease(key, 'laptop-b/2', 60_000)).toBe(true);
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('an upload waiting for approval in the open app', () => {
  it('is stopped at the next try once rejected, and the preparer is told who rejected it and why', async () => {
    const notes: string[] = [];
    desk = await openDesk(h, {
      env: { DONATION_DESK_DATABASE_URL: team.urlOf('alice') },
      notify: (title, body) => notes.push(`${title}: ${body}`),
    });
    const id = await createWorkspace(desk, makeRows(h.recipients, 2, 980));
    const started = await desk.call('upload.start', { workspaceId: id });
    expect(started.upload.state).toBe('waiting-approval');
    expect(started.problems).toEqual([]);
    const bob = new PgTeamDatabase({ url: team.urlOf('bob') });
    try {
      await bob.decide(started.uploadId, 'reject', started.upload.approval!.fileSha256, 'Wrong month');
    } finally {
      await bob.close();
    }
    await desk.desk.resumeUploads();
    const after = (await desk.call('upload.list', {})).find((u) => u.uploadId === started.uploadId)!;
    expect(after.state).toBe('stopped');
    expect(after.stoppedReason).toBe('Approval rejected by bob: Wrong month');
    expect(after.approval).toMatchObject({ state: 'rejected', decidedBy: 'bob', reason: 'Wrong month' });
    expect(after.intents).toEqual([]);
    expect(notes).toContain('Upload rejected: Test gifts: rejected by bob: Wrong month');
  }, 60_000);
});

describe('the audit outbox', () => {
  it('keeps entries while the server is away and copies each once when it answers again', async () => {
    desk = await as(nowhere());
    const id = await createWorkspace(desk, makeRows(h.recipients, 1, 950));
    await desk.desk.close();
    desk = null;
    const local = databaseOf(h.dataDir).all<{ seq: number }>(
      "SELECT seq FROM audit WHERE action = 'import' AND workspace_id = ?",
      id,
    );
    expect(local).toHaveLength(1);

    desk = await as(team.urlOf('alice'));
    const first = await desk.call('audit.list', { filter: { workspaceId: id } });
    expect(first.entries.map((e) => [e.action, e.person])).toEqual([['import', 'alice']]);
    // Listing again, and pushing again, copies nothing twice.
    await desk.desk.pushAudit();
    const second = await desk.call('audit.list', { filter: { workspaceId: id } });
    expect(second.total).toBe(1);
    const seq = databaseOf(h.dataDir).get<{ pushed_seq: number }>(
      'SELECT pushed_seq FROM team_outbox WHERE server = ?',
      `127.0.0.1:${team.port}/desk`,
    );
    expect(seq?.pushed_seq).toBeGreaterThanOrEqual(local[0]!.seq);
    // The local trail is untouched (insert-only): the same entry is still there, once.
    expect(
      databaseOf(h.dataDir).all("SELECT seq FROM audit WHERE action = 'import' AND workspace_id = ?", id),
    ).toEqual(local);
  }, 60_000);
});
