import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import '../../../electron/cli/commands/corrections';
import { closeDatabase } from '../../../electron/services/db/deskDatabase';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { environmentKeyOf } from '../../../electron/services/team/teamUploads';
import type { DonationView } from '../../../shared/contract/reconcileChannels';
import type { TeamCluster } from '../../support/teamCluster';
import { expectFailure, serviceFaults, uploadGifts, type Desk, type Sandbox } from '../reconcile/harness';
import { startTwoDesks, type TwoDesks } from './twoDesks';
import { runCliInProcess } from '../cliInProcess';

/*
 * Corrections an upload claimed on the team database must not stay "being corrected" for good when
 * that upload creates no replacement: alice's upload that the service refused, that an approver
 * rejected, or that could not even be recorded gives its claims back, so dave (another laptop, the
 * same team and service account) may correct those declined donations; a row that did get a
 * donation is finished with the replacement's id.
 */

let desks: TwoDesks;
let s: Sandbox;
let team: TeamCluster;
let carol: PgTeamDatabase;
let bob: PgTeamDatabase;
let alice: Desk;
let dave: Desk;
let bulkId: string;
let declined: DonationView[];
let cliDir: string;

beforeAll(async () => {
  desks = await startTwoDesks();
  ({ s, team, carol, alice, dave } = desks);
  bob = new PgTeamDatabase({ url: team.urlOf('bob') });
  cliDir = await mkdtemp(join(tmpdir(), 'dd-corrections-cli-'));
  bulkId = await uploadGifts(
    s,
    alice,
    [10, 11, 12, 13, 14, 15, 16].map((n) => ({
      recipient: s.unknownCause,
      amount: `${n}.00`,
      currency: 'USD',
    })),
  );
  await s.emu.advance(600);
  await alice.call('donations.list', {});
  await dave.call('donations.list', { bulkIds: [bulkId] });
  const listed = await alice.call('donations.list', { bulkIds: [bulkId], cached: true });
  declined = listed.donations
    .filter((d) => d.state === 'DECLINED')
    .sort((a, b) => (a.row?.rowKey ?? 0) - (b.row?.rowKey ?? 0));
  expect(declined).toHaveLength(7);
}, 120_000);

afterEach(async () => {
  await serviceFaults(s, { reset: true });
  await carol.setRule({ approval: 'never', thresholds: {} });
});

afterAll(async () => {
  await desks?.close();
  await bob?.close();
  if (cliDir) {
    closeDatabase(join(cliDir, 'data'));
    await rm(cliDir, { recursive: true, force: true });
  }
});

interface Claim {
  state: string;
  claimed_by: string;
  upload_id: string | null;
  replacement_id: string | null;
}

async function claimOf(donationId: string): Promise<Claim | undefined> {
  const { rows } = await team.query<Claim>(
    'SELECT state, claimed_by, upload_id, replacement_id FROM desk.correction WHERE donation_id = $1',
    [donationId],
  );
  return rows[0];
}

/** The claim once it leaves `from` (the give-back runs as the bulk's end is recorded), or as it is. */
async function claimSettled(donationId: string, from = 'in-progress'): Promise<Claim | undefined> {
  for (let i = 0; i < 50; i++) {
    const claim = await claimOf(donationId);
    if (claim?.state !== from) return claim;
    await new Promise((r) => setTimeout(r, 100));
  }
  return claimOf(donationId);
}

/** A corrections workspace of alice's for these declined donations, each sent to a good cause. */
async function correctionsWorkspace(desk: Desk, ids: string[]): Promise<string> {
  const grid = await desk.call('donations.fixInGrid', { donationIds: ids });
  const workspace = await desk.call('workspace.open', { id: grid.workspaceId });
  const col = workspace.headers.indexOf('Recipient ID');
  await desk.call('workspace.edit', {
    id: workspace.id,
    baseVersion: workspace.version,
    edits: workspace.rows.map((r, i) => ({
      op: 'set' as const,
      key: r.key,
      column: col,
      value: s.good[i % s.good.length] as string,
    })),
  });
  return workspace.id;
}

/** Follows alice's upload until its bulk ended and the service said which rows got a donation. */
async function followToEnd(desk: Desk, uploadId: string) {
  for (let step = 0; step < 40; step++) {
    const upload = (await desk.call('upload.list', {})).find((u) => u.uploadId === uploadId);
    const intent = upload?.intents.find((i) => i.state !== 'abandoned');
    if (intent) {
      const view = await desk.call('upload.refresh', { intentId: intent.intentId });
      if ((view.state === 'PROCESSED' || view.state === 'ERROR') && view.donations !== null) return view;
    }
    await s.emu.advance(60);
  }
  throw new Error('upload did not end');
}

const correctOnDave = (donationId: string) =>
  dave.call('donations.correct', { donationId, changes: { recipientId: s.good[2] as string } });

describe('an upload that created no replacement gives its corrections back', () => {
  it('a bulk in ERROR: the refused row’s claim is given back (dave may correct it, alice’s resend is refused), the row that got a donation is finished', async () => {
    const [first, second] = declined as [DonationView, DonationView];
    const workspaceId = await correctionsWorkspace(alice, [first.id, second.id]);
    // The service creates the first donation of the file, then fails the rest.
    await serviceFaults(s, { partialExtractionFailure: { afterDonations: 1 } });
    const started = await alice.call('upload.start', { workspaceId });
    expect(await claimOf(second.id)).toMatchObject({ state: 'in-progress', upload_id: started.uploadId });
    const end = await followToEnd(alice, started.uploadId);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(1);
    await serviceFaults(s, { reset: true });

    // The refused row created nothing: its claim is given back, in the team's trail as alice's.
    expect(await claimSettled(second.id)).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
    const { rows: trail } = await team.query<{ person: string; upload_id: string }>(
      "SELECT person, upload_id FROM desk.audit WHERE action = 'correction-abandon' AND donation_id = $1",
      [second.id],
    );
    expect(trail).toEqual([{ person: 'alice', upload_id: started.uploadId }]);
    // The row that got a donation keeps its claim until its replacement is listed, then is done.
    expect(await claimOf(first.id)).toMatchObject({ state: 'in-progress' });
    await s.emu.advance(600);
    await alice.call('donations.list', {});
    const firstNow = (await alice.call('donations.list', { bulkIds: [bulkId], cached: true })).donations.find(
      (d) => d.id === first.id,
    );
    expect(firstNow?.resolution).toMatchObject({ kind: 'replaced' });
    expect(await claimOf(first.id)).toMatchObject({
      state: 'done',
      replacement_id: (firstNow?.resolution as { replacementId: string }).replacementId,
    });

    // Dave's Reconcile no longer shows it being corrected, and his correction goes through.
    const seen = (await dave.call('donations.list', { bulkIds: [bulkId], cached: true })).donations.find(
      (d) => d.id === second.id,
    );
    expect(seen?.correctionElsewhere).toBeNull();
    const byDave = await correctOnDave(second.id);
    expect(await claimOf(second.id)).toMatchObject({
      state: 'done',
      claimed_by: 'dave',
      replacement_id: byDave.replacement.id,
    });

    // Alice's resend of the failed bulk asks the team again: refused, nothing sent, no second payment.
    const refused = await expectFailure(alice.call('upload.resend', { intentId: end.intentId }));
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect(refused.message).toContain(`donation ${second.id} was already replaced by dave`);
    const uploads = await alice.call('upload.list', {});
    expect(uploads.filter((u) => u.corrects === end.serviceId)).toEqual([]);
  }, 90_000);

  it('a resend of a failed bulk claims its correction again for itself', async () => {
    const third = declined[2] as DonationView;
    const workspaceId = await correctionsWorkspace(alice, [third.id]);
    await serviceFaults(s, { partialExtractionFailure: { afterDonations: 0 } });
    const started = await alice.call('upload.start', { workspaceId });
    const end = await followToEnd(alice, started.uploadId);
    expect(end.state).toBe('ERROR');
    await serviceFaults(s, { reset: true });
    expect(await claimSettled(third.id)).toMatchObject({ state: 'abandoned' });

    const resent = await alice.call('upload.resend', { intentId: end.intentId });
    expect(await claimOf(third.id)).toMatchObject({
      state: 'in-progress',
      claimed_by: 'alice',
      upload_id: resent.uploadId,
    });
    const refused = await expectFailure(correctOnDave(third.id));
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect((await followToEnd(alice, resent.uploadId)).state).toBe('PROCESSED');
    await s.emu.advance(600);
    await alice.call('donations.list', {});
    expect(await claimOf(third.id)).toMatchObject({ state: 'done', upload_id: resent.uploadId });
  }, 90_000);

  it('a give-back the team database refused when the bulk ended is made at the next resume', async () => {
    const sixth = declined[5] as DonationView;
    const workspaceId = await correctionsWorkspace(alice, [sixth.id]);
    const abandon = 'FUNCTION desk.abandon_correction(text, text, text)';
    await team.query(`REVOKE EXECUTE ON ${abandon} FROM desk_preparer`);
    try {
      await serviceFaults(s, { partialExtractionFailure: { afterDonations: 0 } });
      const started = await alice.call('upload.start', { workspaceId });
      const end = await followToEnd(alice, started.uploadId);
      expect(end.state).toBe('ERROR');
      await new Promise((r) => setTimeout(r, 500));
      expect(await claimOf(sixth.id)).toMatchObject({ state: 'in-progress', upload_id: started.uploadId });
    } finally {
      await team.query(`GRANT EXECUTE ON ${abandon} TO desk_preparer`);
    }
    await alice.runtime.resumeUploads();
    expect(await claimOf(sixth.id)).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
  }, 90_000);

  it('an upload the team database would not take (nor void): its claim is given back at the next resume', async () => {
    const seventh = declined[6] as DonationView;
    const workspaceId = await correctionsWorkspace(alice, [seventh.id]);
    const claimRows = 'FUNCTION desk.claim_rows(text, text, text[], text[], boolean, text)';
    const voidUpload = 'desk.void_upload(text, text, text)';
    await team.query(`REVOKE EXECUTE ON ${claimRows}, ${voidUpload} FROM desk_preparer`);
    try {
      await expectFailure(alice.call('upload.start', { workspaceId }));
      expect(await claimOf(seventh.id)).toMatchObject({ state: 'in-progress', claimed_by: 'alice' });
    } finally {
      await team.query(`GRANT EXECUTE ON ${claimRows}, ${voidUpload} TO desk_preparer`);
    }
    await alice.runtime.resumeUploads();
    expect(await claimOf(seventh.id)).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
    await correctOnDave(seventh.id);
    expect(await claimOf(seventh.id)).toMatchObject({ state: 'done', claimed_by: 'dave' });
  }, 90_000);

  it('an upload the approver rejected: its claim is given back and dave may correct', async () => {
    const fourth = declined[3] as DonationView;
    await carol.setRule({ approval: 'always', thresholds: {} });
    const workspaceId = await correctionsWorkspace(alice, [fourth.id]);
    const started = await alice.call('upload.start', { workspaceId });
    expect(started.upload.approval?.state).toBe('waiting');
    expect((await expectFailure(correctOnDave(fourth.id))).code).toBe('CORRECTION_ELSEWHERE');
    const waiting = await bob.upload(started.uploadId);
    await bob.decide(started.uploadId, 'reject', waiting!.fileSha256, 'Not this month');
    expect(await claimOf(fourth.id)).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
    // Alice's computer learns of the rejection and stops the upload; nothing went out.
    await alice.runtime.resumeUploads();
    const upload = (await alice.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
    expect(upload?.approval?.state).toBe('rejected');
    expect(upload?.intents).toEqual([]);
    const byDave = await correctOnDave(fourth.id);
    expect(await claimOf(fourth.id)).toMatchObject({ state: 'done', replacement_id: byDave.replacement.id });
  }, 90_000);

  it('an upload that could not be recorded (the disk refused its file): its claim is given back', async () => {
    const fifth = declined[4] as DonationView;
    const workspaceId = await correctionsWorkspace(alice, [fifth.id]);
    const files = join(s.dataDir, 'uploads', 'files');
    // Where the upload's file goes, a plain file: writing it fails after the correction was claimed.
    await rename(files, `${files}.aside`);
    await writeFile(files, 'not a folder');
    try {
      await expect(alice.call('upload.start', { workspaceId })).rejects.toThrow(/EEXIST/);
    } finally {
      await rm(files, { force: true });
      await rename(`${files}.aside`, files);
    }
    expect(await claimOf(fifth.id)).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
    const byDave = await correctOnDave(fifth.id);
    expect(await claimOf(fifth.id)).toMatchObject({ state: 'done', replacement_id: byDave.replacement.id });
  }, 90_000);
});

describe('donation-desk corrections: a correction left in progress, given up from the command line', () => {
  // The command runs on the emulator as the custom environment (--base-url): claims there.
  const key = () => environmentKeyOf({ id: 'custom', baseUrl: s.emu.apiBaseUrl, emulated: false });
  const cli = (login: 'alice' | 'carol' | 'dave', args: string[]) =>
    runCliInProcess(s.emu, cliDir, args, { DONATION_DESK_DATABASE_URL: team.urlOf(login) });

  it('lists it, refuses a colleague, lets a desk admin give it up with the reason in the audit trail', async () => {
    const aliceDb = new PgTeamDatabase({ url: team.urlOf('alice'), computer: 'alice-laptop' });
    try {
      await aliceDb.claimCorrection(key(), 'declined-left-behind', {
        how: 'upload',
        uploadId: 'upload-never-sent',
      });
    } finally {
      await aliceDb.close();
    }
    const listed = await cli('dave', ['corrections']);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(
      /1 correction in progress:\n {2}declined-left-behind {2}alice \(alice-laptop\) since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(0 days\), in upload upload-never-sent/,
    );
    expect((await cli('dave', ['corrections', '--older-than', '1'])).out).toContain(
      'No correction of a declined donation is in progress for 1 day or more.',
    );

    const noReason = await cli('carol', ['corrections', 'release', 'declined-left-behind']);
    expect(noReason.code).toBe(2);
    expect(noReason.err).toContain('--reason');
    const notHis = await cli('dave', [
      'corrections',
      'release',
      'declined-left-behind',
      '--reason',
      'Mine now',
    ]);
    expect(notHis.code).toBe(1);
    expect(notHis.err).toContain(
      'Only alice, who is correcting donation declined-left-behind, or a desk admin',
    );
    expect(await claimOf('declined-left-behind')).toMatchObject({ state: 'in-progress' });

    const released = await cli('carol', [
      'corrections',
      'release',
      'declined-left-behind',
      '--reason',
      'Alice left; her upload was never sent',
    ]);
    expect(released.code, released.err).toBe(0);
    expect(released.out).toContain(
      'Gave up the correction of donation declined-left-behind that alice started in upload upload-never-sent',
    );
    expect(await claimOf('declined-left-behind')).toMatchObject({ state: 'abandoned', claimed_by: 'alice' });
    const again = await cli('carol', ['corrections', 'release', 'declined-left-behind', '--reason', 'Again']);
    expect(again.code).toBe(2);
    expect(again.err).toContain('No correction of donation declined-left-behind is in progress');

    const { rows } = await team.query<{ action: string; person: string; details: Record<string, unknown> }>(
      "SELECT action, person, details FROM desk.audit WHERE donation_id = 'declined-left-behind' ORDER BY seq",
    );
    expect(rows.map((r) => [r.action, r.person])).toEqual([
      ['correction-claim', 'alice'],
      ['correction-abandon', 'carol'],
      ['release-correction', 'carol'],
    ]);
    expect(rows[2]?.details).toMatchObject({
      reason: 'Alice left; her upload was never sent',
      claimedBy: 'alice',
      how: 'upload',
    });
  }, 60_000);
});
