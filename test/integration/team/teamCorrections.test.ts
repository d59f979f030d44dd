import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DonationView } from '../../../shared/contract/reconcileChannels';
import type { TeamCluster } from '../../support/teamCluster';
import {
  expectFailure,
  followUpload,
  openDesk,
  serviceFaults,
  uploadGifts,
  type Desk,
  type Sandbox,
} from '../reconcile/harness';
import { startTwoDesks, type TwoDesks } from './twoDesks';

/*
 * Two colleagues, two data folders ("laptops"), one team database and one service account: each
 * local store only knows its own corrections, so only the team database can stop the second
 * correction of the same declined donation (a second replacement would pay the gift twice).
 */

let desks: TwoDesks;
let s: Sandbox;
let team: TeamCluster;
let alice: Desk;
let dave: Desk;
let bulkId: string;

beforeAll(async () => {
  desks = await startTwoDesks();
  ({ s, team, alice, dave } = desks);
  bulkId = await uploadGifts(s, alice, [
    { recipient: s.good[0] as string, amount: '10.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '12.34', currency: 'USD' },
    { recipient: s.unknownCause, amount: '20.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '30.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '40.00', currency: 'USD' },
  ]);
  await s.emu.advance(600);
  await alice.call('donations.list', {});
  // Dave reads alice's bulk on his own computer: the same declined donations, none of her corrections.
  await dave.call('donations.list', { bulkIds: [bulkId] });
}, 120_000);

afterAll(async () => {
  await desks?.close();
});

async function declinedOf(desk: Desk): Promise<DonationView[]> {
  const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
  return listed.donations
    .filter((d) => d.state === 'DECLINED')
    .sort((a, b) => (a.row?.rowKey ?? 0) - (b.row?.rowKey ?? 0));
}

async function viewOn(desk: Desk, id: string): Promise<DonationView> {
  return (await declinedOf(desk)).find((d) => d.id === id)!;
}

describe('a correction made on one laptop, seen on another', () => {
  it('refuses dave’s correction of a donation alice already replaced, and shows it replaced by her', async () => {
    const [first] = await declinedOf(alice);
    expect(first).toBeDefined();
    expect((await viewOn(dave, first!.id)).correctionElsewhere).toBeNull();

    const done = await alice.call('donations.correct', {
      donationId: first!.id,
      changes: { recipientId: s.good[1] as string },
    });
    const replacementId = done.replacement.id;

    const refused = await expectFailure(
      dave.call('donations.correct', {
        donationId: first!.id,
        changes: { recipientId: s.good[2] as string },
      }),
    );
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect(refused.message).toContain(`already replaced by alice (replacement ${replacementId})`);

    // Dave's Reconcile says so, though his own store never saw the replacement.
    const seen = await viewOn(dave, first!.id);
    expect(seen.resolution).toBeNull();
    expect(seen.correctionElsewhere).toMatchObject({ by: 'alice', state: 'done', replacementId });
    // Alice's own view is her local one: replaced, nothing "elsewhere".
    expect((await viewOn(alice, first!.id)).correctionElsewhere).toBeNull();

    // Once dave refreshes, his computer closes it too, by alice's replacement: his open count and his
    // month-end report agree with the team's.
    const openBefore = (await dave.call('donations.page', { bulk: bulkId, offset: 0, limit: 50 }))
      .declinedOpen;
    await dave.call('donations.list', { bulkIds: [bulkId] });
    const closed = await viewOn(dave, first!.id);
    expect(closed.resolution).toMatchObject({ kind: 'replaced', replacementId, by: 'alice' });
    expect((await dave.call('donations.page', { bulk: bulkId, offset: 0, limit: 50 })).declinedOpen).toBe(
      openBefore - 1,
    );
  }, 60_000);

  it('refuses dave while alice’s correction is in progress (its answer lost), naming her and her computer', async () => {
    const second = (await declinedOf(alice))[1]!;
    await serviceFaults(s, { error500Rate: 1 });
    try {
      const lost = await expectFailure(
        alice.call('donations.correct', {
          donationId: second.id,
          changes: { recipientId: s.good[1] as string },
        }),
      );
      expect(lost.code).toBe('AMBIGUOUS');
    } finally {
      await serviceFaults(s, { reset: true });
    }
    const refused = await expectFailure(
      dave.call('donations.correct', {
        donationId: second.id,
        changes: { recipientId: s.good[2] as string },
      }),
    );
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect(refused.message).toMatch(
      /^alice is already correcting this donation \(from .+, since \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)/,
    );
    const seen = await viewOn(dave, second.id);
    expect(seen.correctionElsewhere).toMatchObject({
      by: 'alice',
      state: 'in-progress',
      replacementId: null,
    });
    // Nothing was created by dave's attempt: the declined donation has no replacement from him.
    expect(seen.resolution).toBeNull();
    // Nor may dave dismiss it while alice's correction stands.
    const notDismissed = await expectFailure(
      dave.call('donations.dismiss', { donationId: second.id, reason: 'Paid by cheque' }),
    );
    expect(notDismissed.code).toBe('CORRECTION_ELSEWHERE');
    expect(notDismissed.message).toMatch(
      /^alice is already correcting this donation .* cannot be dismissed here/,
    );
    expect((await viewOn(dave, second.id)).resolution).toBeNull();
  }, 60_000);

  it('refuses an upload of dave’s that replaces a donation alice is correcting, and claims none of its rows', async () => {
    const [, second, third] = await declinedOf(dave);
    const grid = await dave.call('donations.fixInGrid', { donationIds: [second!.id, third!.id] });
    const workspace = await dave.call('workspace.open', { id: grid.workspaceId });
    const col = workspace.headers.indexOf('Recipient ID');
    await dave.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: workspace.rows.map((r) => ({
        op: 'set' as const,
        key: r.key,
        column: col,
        value: s.good[3] as string,
      })),
    });
    const refused = await expectFailure(dave.call('upload.start', { workspaceId: workspace.id }));
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect(refused.message).toContain(`alice is already correcting donation ${second!.id}`);
    // The third was free, but the upload did not go: its claim was given back.
    const { rows } = await team.query<{ state: string; claimed_by: string }>(
      'SELECT state, claimed_by FROM desk.correction WHERE donation_id = $1',
      [third!.id],
    );
    expect(rows).toEqual([{ state: 'abandoned', claimed_by: 'dave' }]);
    expect((await viewOn(alice, third!.id)).correctionElsewhere).toBeNull();
  }, 60_000);

  it('sends dave’s corrections workspace one by one: the free row is replaced, alice’s is refused', async () => {
    const [, second, third] = await declinedOf(dave);
    const grid = (await dave.call('workspace.list', {})).find((w) => w.name.startsWith('Corrections of'))!;
    const sent = await dave.call('donations.correctFromWorkspace', { workspaceId: grid.id });
    const bySecond = sent.results.find((r) => r.declinedId === second!.id)!;
    const byThird = sent.results.find((r) => r.declinedId === third!.id)!;
    expect(bySecond).toMatchObject({ outcome: 'failed', replacementId: null });
    expect(bySecond.message).toMatch(/^alice is already correcting this donation/);
    expect(byThird.outcome).toBe('replaced');

    // Alice's own computer now learns it from the team, and may not correct it a second time.
    expect((await viewOn(alice, third!.id)).correctionElsewhere).toMatchObject({
      by: 'dave',
      state: 'done',
      replacementId: byThird.replacementId,
    });
    const refused = await expectFailure(
      alice.call('donations.correct', {
        donationId: third!.id,
        changes: { recipientId: s.good[2] as string },
      }),
    );
    expect(refused.code).toBe('CORRECTION_ELSEWHERE');
    expect(refused.message).toContain(`already replaced by dave (replacement ${byThird.replacementId})`);
  }, 60_000);

  it('claims the corrections of alice’s upload for it, and finishes them once she sees the replacements', async () => {
    const fourth = (await declinedOf(alice))[3]!;
    const grid = await alice.call('donations.fixInGrid', { donationIds: [fourth.id] });
    const workspace = await alice.call('workspace.open', { id: grid.workspaceId });
    const col = workspace.headers.indexOf('Recipient ID');
    await alice.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: [{ op: 'set' as const, key: workspace.rows[0]!.key, column: col, value: s.good[1] as string }],
    });
    const started = await alice.call('upload.start', { workspaceId: workspace.id });
    const claim = async () =>
      (
        await team.query<{ state: string; how: string; upload_id: string; replacement_id: string | null }>(
          'SELECT state, how, upload_id, replacement_id FROM desk.correction WHERE donation_id = $1',
          [fourth.id],
        )
      ).rows[0];
    expect(await claim()).toMatchObject({ state: 'in-progress', how: 'upload', upload_id: started.uploadId });
    // Meanwhile dave is told alice's upload carries it.
    const refused = await expectFailure(
      dave.call('donations.correct', {
        donationId: fourth.id,
        changes: { recipientId: s.good[2] as string },
      }),
    );
    expect(refused.message).toMatch(/^alice is already correcting this donation in an upload/);

    await followUpload(s, alice, started.uploadId);
    await s.emu.advance(600);
    await alice.call('donations.list', {});
    const done = await claim();
    expect(done?.state).toBe('done');
    expect((await viewOn(alice, fourth.id)).resolution).toMatchObject({
      kind: 'replaced',
      replacementId: done?.replacement_id,
    });
    expect((await viewOn(dave, fourth.id)).correctionElsewhere).toMatchObject({ by: 'alice', state: 'done' });
  }, 60_000);

  it('with the team database out of reach: the page shows no colleague’s correction, and Correct sends nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dd-offline-'));
    const nowhere = team.urlOf('dave').replace(`:${team.port}/`, ':1/');
    const away = await openDesk(s, { dataDir: dir, env: { DONATION_DESK_DATABASE_URL: nowhere } });
    try {
      await away.call('donations.list', { bulkIds: [bulkId] });
      const second = (await declinedOf(away))[1]!;
      // alice holds it on the team database, but this computer cannot ask: shown as nothing known.
      expect(second.correctionElsewhere).toBeNull();
      const page = await away.call('donations.page', { limit: 50, offset: 0, status: 'DECLINED' });
      expect(page.donations.every((d) => d.correctionElsewhere === null)).toBe(true);
      const refused = await expectFailure(
        away.call('donations.correct', {
          donationId: second.id,
          changes: { recipientId: s.good[2] as string },
        }),
      );
      expect(refused.code).not.toBe('CORRECTION_ELSEWHERE');
      expect(refused.message).toMatch(/nothing answers/);
      expect((await viewOn(away, second.id)).resolution).toBeNull();
    } finally {
      await away.runtime.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
