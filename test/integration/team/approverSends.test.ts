import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import { letApproversReadWaitingFiles } from '../../support/approverReads';
import { startTeamCluster, type TeamCluster } from '../../support/teamCluster';
import {
  followUpload,
  giftsWorkspace,
  openDesk,
  serviceFaults,
  startSandbox,
  type Desk,
  type GiftRow,
  type Sandbox,
} from '../reconcile/harness';
import { getToken } from '../emulator/helpers';

/*
 * The approver sends (issue 14): alice prepares on her laptop, bob approves on his, and under the
 * team's rule "the approver sends" his computer sends the exact file hers built and stored with the
 * submission. The service ends up with the upload's donations once; alice's computer, resumed, never
 * sends it again, shows it sent by bob and follows his bulk as hers. Two data folders, one team
 * database, one service account (a custom environment at the emulator's addresses).
 */

let s: Sandbox;
let team: TeamCluster;
let carol: PgTeamDatabase;
let aliceDir: string;
let bobDir: string;
let alice: Desk;
let bob: Desk;

beforeAll(async () => {
  [s, team] = await Promise.all([startSandbox(), startTeamCluster()]);
  carol = new PgTeamDatabase({ url: team.urlOf('carol') });
  await carol.setRule({ approval: 'always', thresholds: {}, sender: 'approver' });
  // The approver reviews the file itself before approving (see test/support/approverReads.ts).
  await letApproversReadWaitingFiles(team);
  aliceDir = await mkdtemp(join(tmpdir(), 'dd-alice-'));
  bobDir = await mkdtemp(join(tmpdir(), 'dd-bob-'));
  alice = await openDesk(s, {
    custom: true,
    dataDir: aliceDir,
    env: { DONATION_DESK_DATABASE_URL: team.urlOf('alice') },
  });
  bob = await openDesk(s, {
    custom: true,
    dataDir: bobDir,
    env: { DONATION_DESK_DATABASE_URL: team.urlOf('bob') },
  });
}, 120_000);

afterAll(async () => {
  await alice?.runtime.close();
  await bob?.runtime.close();
  await carol?.close();
  await team?.stop();
  await s?.close();
  for (const dir of [aliceDir, bobDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

const workspaceOf = (desk: Desk, name: string, gifts: GiftRow[]) => giftsWorkspace(desk, gifts, { name });

/** Every donation the service holds, as its own API lists them (all pages). */
async function donationsAtService(): Promise<Array<{ id: string; attributes: Record<string, unknown> }>> {
  const token = await getToken(s.emu);
  const all: Array<{ id: string; attributes: Record<string, unknown> }> = [];
  let next: string | undefined = `${s.emu.apiBaseUrl}/donations?page[size]=100`;
  while (next) {
    const res = await fetch(next, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: Array<{ id: string; attributes: Record<string, unknown> }>;
      links?: { next?: string | null };
    };
    all.push(...body.data);
    next = body.data.length > 0 ? (body.links?.next ?? undefined) : undefined;
  }
  return all;
}

const GIFTS = (): GiftRow[] => [
  { recipient: s.good[0] as string, amount: '120.00', currency: 'USD' },
  { recipient: s.good[1] as string, amount: '35.50', currency: 'USD' },
  { recipient: s.good[2] as string, amount: '80.00', currency: 'EUR' },
];

describe('the approver sends', () => {
  let uploadId: string;

  it('alice uploads: it waits, its exact file stored with the submission, nothing sent', async () => {
    const started = await alice.call('upload.start', {
      workspaceId: await workspaceOf(alice, 'November gifts', GIFTS()),
    });
    uploadId = started.uploadId;
    expect(started.problems).toEqual([]);
    expect(started.upload.state).toBe('waiting-approval');
    expect(started.upload.intents).toEqual([]);
    expect(started.upload.approval).toMatchObject({
      state: 'waiting',
      sender: 'approver',
      sentElsewhere: null,
    });
    const stored = await team.query<{ part: number; sha256: string; stored_by: string }>(
      'SELECT part, sha256, stored_by FROM desk.upload_file WHERE upload_id = $1',
      [uploadId],
    );
    expect(stored.rows).toEqual([
      { part: 0, sha256: started.upload.approval?.fileSha256, stored_by: 'alice' },
    ]);
    expect(await donationsAtService()).toHaveLength(0);

    // Her computer resumed while it waits: still nothing sent.
    await alice.runtime.resumeUploads();
    expect((await alice.call('upload.list', {}))[0]?.intents).toEqual([]);
  }, 60_000);

  it('bob approves and sends it from his computer: the service holds the upload’s donations', async () => {
    const review = await bob.call('approvals.review', { uploadId });
    expect(review).toMatchObject({ canDecide: true, sender: 'approver' });
    const decided = await bob.call('approvals.decide', {
      uploadId,
      decision: 'approve',
      fileSha256: review.fileSha256,
    });
    expect(decided).toMatchObject({ state: 'sent', decidedBy: 'bob', sentBy: 'bob' });
    expect(decided.sending?.problems).toEqual([]);

    // His computer's ledger holds the upload, with no workspace, built from the stored file.
    const mine = (await bob.call('upload.list', {})).find((u) => u.uploadId === uploadId);
    expect(mine).toMatchObject({ workspaceId: '', workspaceName: 'November gifts', rows: 3 });
    expect(mine?.approval).toMatchObject({ state: 'sent', sender: 'approver', sentElsewhere: null });
    const bulkId = await followUpload(s, bob, uploadId);

    const atService = await donationsAtService();
    expect(atService).toHaveLength(3);
    expect(
      atService.every((d) => d.attributes['bulk'] === bulkId || JSON.stringify(d).includes(bulkId)),
    ).toBe(true);
    const published = await team.query<{ bulk_id: string; sent_by: string }>(
      'SELECT bulk_id, sent_by FROM desk.sent_bulk WHERE upload_id = $1',
      [uploadId],
    );
    expect(published.rows).toEqual([{ bulk_id: bulkId, sent_by: 'bob' }]);
  }, 120_000);

  it('alice’s computer resumes, never sends it again, shows it sent by bob and follows his bulk as hers', async () => {
    await alice.runtime.resumeUploads();
    const ledger = (await alice.call('upload.list', {})).find((u) => u.uploadId === uploadId);
    expect(ledger?.approval).toMatchObject({
      state: 'sent',
      sender: 'approver',
      sentElsewhere: { by: 'bob' },
    });
    const bobsBulk = (
      await team.query<{ bulk_id: string }>('SELECT bulk_id FROM desk.sent_bulk WHERE upload_id = $1', [
        uploadId,
      ])
    ).rows[0]?.bulk_id;
    expect(ledger?.intents.map((i) => i.serviceId)).toEqual([bobsBulk]);
    const end = await alice.call('upload.refresh', { intentId: bobsBulk as string });
    expect(end).toMatchObject({ state: 'PROCESSED', donations: 3 });
    expect((await alice.call('upload.list', {})).find((u) => u.uploadId === uploadId)?.state).toBe(
      'processed',
    );

    // Resumed again (a restart): nothing more goes out.
    await alice.runtime.resumeUploads();
    expect(await donationsAtService()).toHaveLength(3);
    // Her own team login cannot mark it sent either: the database names who sent it.
    const refused = await alice.runtime.team
      .current()!
      .markSent(uploadId, ledger?.approval?.fileSha256 as string)
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(refused?.message).toMatch(/already sent by bob/);
  }, 120_000);

  it('picks up on bob’s computer, at resume, an approved upload he is to send (approved elsewhere, say by the CLI)', async () => {
    const started = await alice.call('upload.start', {
      workspaceId: await workspaceOf(alice, 'December gifts', [
        { recipient: s.good[3] as string, amount: '15.00', currency: 'USD' },
      ]),
    });
    const record = await bob.runtime.team.current()!.upload(started.uploadId);
    // Approved straight in the database (another computer of bob's would do the same): nothing sent yet.
    await bob.runtime.team.current()!.decide(started.uploadId, 'approve', record!.fileSha256, null);
    expect(await donationsAtService()).toHaveLength(3);
    await bob.runtime.resumeUploads();
    await followUpload(s, bob, started.uploadId);
    expect(await donationsAtService()).toHaveLength(4);
    await alice.runtime.resumeUploads();
    const hers = (await alice.call('upload.list', {})).find((u) => u.uploadId === started.uploadId);
    expect(hers?.approval?.sentElsewhere).toMatchObject({ by: 'bob' });
    expect(hers?.intents).toHaveLength(1);
    expect(await donationsAtService()).toHaveLength(4);
  }, 120_000);

  it('ties bob’s bulk to alice’s rows: a bulk that ends in ERROR is repaired from her workspace, sent by bob again', async () => {
    await serviceFaults(s, { partialExtractionFailure: { afterDonations: 1 } });
    const started = await alice.call('upload.start', {
      workspaceId: await workspaceOf(alice, 'January gifts', [
        { recipient: s.good[0] as string, amount: '11.00', currency: 'USD' },
        { recipient: s.good[1] as string, amount: '22.00', currency: 'USD' },
      ]),
    });
    let bulkId: string;
    try {
      const record = await bob.runtime.team.current()!.upload(started.uploadId);
      await bob.call('approvals.decide', {
        uploadId: started.uploadId,
        decision: 'approve',
        fileSha256: record!.fileSha256,
      });
      bulkId = (await bob.call('upload.list', {})).find((u) => u.uploadId === started.uploadId)!.intents[0]!
        .intentId;
      for (let step = 0; step < 30; step++) {
        const view = await bob.call('upload.refresh', { intentId: bulkId });
        if (view.state === 'ERROR' && view.donations !== null) break;
        await s.emu.advance(60);
      }
    } finally {
      await serviceFaults(s, { partialExtractionFailure: null });
    }
    expect(await donationsAtService()).toHaveLength(5);

    // Alice's computer adopts the bulk and learns, from her own copy of the file, which row got a donation.
    await alice.runtime.resumeUploads();
    const adopted = await alice.call('upload.refresh', { intentId: bulkId });
    expect(adopted).toMatchObject({ state: 'ERROR', donations: 1, uploadId: started.uploadId });
    const errors = await alice.call('upload.errors', { intentId: bulkId });
    expect(errors.issues.length).toBeGreaterThan(0);
    // Reconcile on her computer ties the upload to her workspace's rows.
    await alice.call('donations.refresh', {});
    const summary = (await alice.call('donations.summary', {})).uploads.find(
      (u) => u.uploadId === started.uploadId,
    );
    expect(summary?.sentElsewhere ?? null).toBeNull();
    expect((await alice.call('donations.page', { offset: 0, limit: 50 })).total).toBe(5);

    // Bob's computer has no workspace for it: the repair is hers, and his Reconcile still lists the donations.
    const notHere = await bob.call('upload.resend', { intentId: bulkId }).then(
      () => null,
      (e: Error) => e,
    );
    expect(notHere?.message).toMatch(/fix and send them again from their computer/);
    await bob.call('donations.refresh', {});
    const onBob = await bob.call('donations.page', { offset: 0, limit: 50 });
    expect(onBob.total).toBe(5);

    // The repair: the row with no donation, from her workspace, as a new upload that bob approves and sends.
    const resent = await alice.call('upload.resend', { intentId: bulkId });
    expect(resent.upload).toMatchObject({ state: 'waiting-approval', rows: 1 });
    const record = await bob.runtime.team.current()!.upload(resent.uploadId);
    await bob.call('approvals.decide', {
      uploadId: resent.uploadId,
      decision: 'approve',
      fileSha256: record!.fileSha256,
    });
    await followUpload(s, bob, resent.uploadId);
    expect(await donationsAtService()).toHaveLength(6);
    await alice.runtime.resumeUploads();
    expect(await donationsAtService()).toHaveLength(6);
  }, 180_000);
});
