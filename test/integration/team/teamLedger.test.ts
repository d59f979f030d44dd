import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgTeamDatabase } from '../../../electron/services/team/teamDatabase';
import type { MonthReport } from '../../../shared/contract/reconcileChannels';
import type { TeamCluster } from '../../support/teamCluster';
import {
  driveToEnd,
  giftsWorkspace,
  serviceFaults,
  type Desk,
  type GiftRow,
  type Sandbox,
} from '../reconcile/harness';
import { startTwoDesks, type TwoDesks } from './twoDesks';

/*
 * The shared ledger: alice sends the month from her laptop, dave reconciles on his. Two data folders,
 * one team database, one service account (a custom environment at the emulator's addresses, as two
 * real computers reach one service). Dave's computer never sent a thing, yet lists alice's donations,
 * ties her uploads out, and prints the same month-end report as hers; what each sends one by one
 * (a single donation, a correction) is counted on both.
 */

let desks: TwoDesks;
let s: Sandbox;
let team: TeamCluster;
let carol: PgTeamDatabase;
let alice: Desk;
let dave: Desk;
let month: string;

beforeAll(async () => {
  desks = await startTwoDesks({ custom: true });
  ({ s, team, carol, alice, dave } = desks);
}, 120_000);

afterAll(async () => {
  await desks?.close();
});

async function send(desk: Desk, name: string, gifts: GiftRow[]) {
  const started = await desk.call('upload.start', {
    workspaceId: await giftsWorkspace(desk, gifts, { name }),
  });
  const intentId = started.upload.intents.at(-1)?.intentId as string;
  return { started, end: await driveToEnd(s, desk, intentId), intentId };
}

/** Moves the service's clock on and refreshes as the Refresh button does, on both computers. */
async function settleBoth(): Promise<void> {
  for (let round = 0; round < 60; round++) {
    await s.emu.advance(600);
    const [a, d] = [await alice.call('donations.refresh', {}), await dave.call('donations.refresh', {})];
    const open = [...a.donations, ...d.donations].some(
      (x) => x.state !== 'CLEARED' && x.state !== 'DECLINED',
    );
    if (!open) return;
  }
  throw new Error('donations did not settle');
}

const linesOf = (r: MonthReport) =>
  r.lines.map((l) => ({ ...l })).sort((x, y) => x.currencyCode.localeCompare(y.currencyCode));

describe('one ledger for the team', () => {
  it('lists on dave’s computer the donations alice sent from hers, and ties her upload out there', async () => {
    const { started, end } = await send(alice, 'November gifts', [
      { recipient: s.good[0] as string, amount: '10.00', currency: 'USD' },
      { recipient: s.good[1] as string, amount: '25.50', currency: 'USD' },
      { recipient: s.unknownCause, amount: '12.34', currency: 'USD' },
      { recipient: s.good[2] as string, amount: '100.00', currency: 'EUR' },
    ]);
    expect(end.state).toBe('PROCESSED');
    month = started.upload.createdAt.slice(0, 7);
    // Recorded for the team as it moved, by the upload services (no refresh on alice's computer yet).
    const { rows } = await team.query<{ bulk_id: string; state: string; sent_by: string; taken: unknown }>(
      'SELECT bulk_id, state, sent_by, taken_totals AS taken FROM desk.sent_bulk WHERE upload_id = $1',
      [started.upload.uploadId],
    );
    expect(rows).toEqual([
      {
        bulk_id: end.serviceId,
        state: 'PROCESSED',
        sent_by: 'alice',
        taken: [
          { currencyCode: 'USD', count: 3, amount: 1000 + 2550 + 1234 },
          { currencyCode: 'EUR', count: 1, amount: 10000 },
        ],
      },
    ]);

    // Before: dave's computer knows nothing of it.
    expect((await dave.call('donations.page', { offset: 0, limit: 50 })).total).toBe(0);
    await settleBoth();

    const page = await dave.call('donations.page', { offset: 0, limit: 50 });
    expect(page.total).toBe(4);
    expect(page.declinedOpen).toBe(1);
    // Her rows stay on her computer: the donations are hers, with no workspace row here.
    expect(page.donations.every((d) => d.row === null)).toBe(true);
    const bulkId = page.donations[0]?.bulkId as string;
    expect(page.bulkIds).toEqual([bulkId]);

    const summary = await dave.call('donations.summary', {});
    expect(summary.uploads).toHaveLength(1);
    expect(summary.uploads[0]).toMatchObject({
      uploadId: started.upload.uploadId,
      workspaceName: 'November gifts',
      sentElsewhere: { by: 'alice' },
      reconciled: true,
      notes: [],
    });
    const own = (await alice.call('donations.summary', {})).uploads[0];
    expect(own?.sentElsewhere ?? null).toBeNull();
    expect(summary.uploads[0]?.submitted).toEqual(own?.submitted);
    expect(summary.uploads[0]?.declined).toEqual(own?.declined);
  }, 180_000);

  it('counts what each sends one by one on both computers: the month-end reports are the same', async () => {
    // Dave replaces alice's declined donation with a correction of his own, one by one.
    const declined = (await dave.call('donations.page', { offset: 0, limit: 50, status: 'DECLINED' }))
      .donations[0]!;
    const corrected = await dave.call('donations.correct', {
      donationId: declined.id,
      changes: { recipientId: s.good[3] as string },
    });
    // Alice sends a single donation from the form.
    const single = await alice.call('donations.create', {
      clientRef: randomUUID(),
      form: {
        fields: { recipientId: s.good[4] as string, amount: '5.00', currencyCode: 'USD' },
        metadata: [],
      },
    });
    await settleBoth();

    // Each computer holds the other's donation sent one by one, and alice's declined one is closed
    // there by dave's replacement.
    const onAlice = await alice.call('donations.page', { offset: 0, limit: 50 });
    const onDave = await dave.call('donations.page', { offset: 0, limit: 50 });
    const ids = (p: typeof onAlice) => p.donations.map((d) => d.id).sort();
    expect(ids(onAlice)).toEqual(ids(onDave));
    expect(ids(onAlice)).toContain(corrected.replacement.id);
    expect(ids(onAlice)).toContain(single.donation.id);
    expect(onAlice.declinedOpen).toBe(0);
    expect(onDave.declinedOpen).toBe(0);
    const closed = onAlice.donations.find((d) => d.id === declined.id);
    expect(closed?.resolution).toMatchObject({ kind: 'replaced', replacementId: corrected.replacement.id });

    const [a, d] = [
      await alice.call('donations.report', { month, refresh: false }),
      await dave.call('donations.report', { month, refresh: false }),
    ];
    expect(a.reconciled).toBe(true);
    expect(d.reconciled).toBe(true);
    expect(linesOf(d)).toEqual(linesOf(a));
    const usd = a.lines.find((l) => l.currencyCode === 'USD');
    expect(usd?.submitted).toEqual({ count: 3, amount: 1000 + 2550 + 1234 });
    expect(usd?.sentOneByOne).toEqual({ count: 2, amount: 1234 + 500 });
  }, 180_000);

  it('ties out a colleague’s upload that stopped part-way with what the service took of it', async () => {
    await serviceFaults(s, { partialExtractionFailure: { afterDonations: 2 } });
    let stopped;
    try {
      stopped = await send(alice, 'December gifts', [
        { recipient: s.good[0] as string, amount: '30.00', currency: 'USD' },
        { recipient: s.good[1] as string, amount: '100.00', currency: 'EUR' },
        { recipient: s.good[2] as string, amount: '7.25', currency: 'USD' },
      ]);
    } finally {
      await serviceFaults(s, { partialExtractionFailure: null });
    }
    expect(stopped.end.state).toBe('ERROR');
    expect(stopped.end.donations).toBe(2);
    await settleBoth();

    const mine = (await alice.call('donations.summary', {})).uploads.find(
      (u) => u.uploadId === stopped.started.upload.uploadId,
    );
    const theirs = (await dave.call('donations.summary', {})).uploads.find(
      (u) => u.uploadId === stopped.started.upload.uploadId,
    );
    expect(mine).toMatchObject({ reconciled: true, notes: [] });
    // Dave has no copy of her file: what it took comes from the team's ledger, as her computer worked it out.
    expect(theirs).toMatchObject({ reconciled: true, notes: [], sentElsewhere: { by: 'alice' } });
    expect(theirs?.submitted).toEqual(mine?.submitted);
    const [a, d] = [
      await alice.call('donations.report', { month, refresh: false }),
      await dave.call('donations.report', { month, refresh: false }),
    ];
    expect(linesOf(d)).toEqual(linesOf(a));
    expect(d.reconciled).toBe(true);
  }, 180_000);

  it('closes a dismissal for the team: dave sees it dismissed by alice and may not correct it', async () => {
    const { end } = await send(alice, 'Late gifts', [
      { recipient: s.unknownCause, amount: '40.00', currency: 'USD' },
      { recipient: s.unknownCause, amount: '41.00', currency: 'USD' },
    ]);
    expect(end.state).toBe('PROCESSED');
    await settleBoth();
    const open = (
      await alice.call('donations.page', { offset: 0, limit: 50, status: 'DECLINED' })
    ).donations.filter((d) => d.resolution === null);
    expect(open).toHaveLength(2);
    const [first, second] = open;
    await alice.call('donations.dismiss', { donationId: first!.id, reason: 'Paid by cheque' });

    // Before dave's refresh his computer still shows it open, but the team database refuses his correction.
    const refused = await dave
      .call('donations.correct', { donationId: first!.id, changes: { recipientId: s.good[0] as string } })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(refused?.message).toMatch(/dismissed by alice on \d{4}-\d{2}-\d{2} \(Paid by cheque\)/);
    expect((refused as Error & { code?: string }).code).toBe('CORRECTION_ELSEWHERE');
    // Nor in an upload: the row is named, nothing is sent, and nothing stays claimed.
    const grid = await dave.call('donations.fixInGrid', { donationIds: [first!.id] });
    const workspace = await dave.call('workspace.open', { id: grid.workspaceId });
    await dave.call('workspace.edit', {
      id: workspace.id,
      baseVersion: workspace.version,
      edits: [
        {
          op: 'set' as const,
          key: workspace.rows[0]!.key,
          column: workspace.headers.indexOf('Recipient ID'),
          value: s.good[0] as string,
        },
      ],
    });
    const notSent = await dave.call('upload.start', { workspaceId: workspace.id }).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(notSent?.code).toBe('CORRECTION_ELSEWHERE');
    expect(notSent?.message).toMatch(/^Row 2: This donation was dismissed by alice/);
    await dave.call('workspace.delete', { id: workspace.id }).catch(() => undefined);

    // Dave corrects the other one; alice may then not dismiss it.
    await dave.call('donations.correct', {
      donationId: second!.id,
      changes: { recipientId: s.good[1] as string },
    });
    const notDismissed = await alice
      .call('donations.dismiss', { donationId: second!.id, reason: 'Duplicate' })
      .then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
    expect(notDismissed?.code).toBe('CORRECTION_ELSEWHERE');

    await settleBoth();
    const onDave = (await dave.call('donations.page', { offset: 0, limit: 100, status: 'DECLINED' }))
      .donations;
    expect(onDave.find((d) => d.id === first!.id)?.resolution).toMatchObject({
      kind: 'dismissed',
      reason: 'Paid by cheque',
      by: 'alice',
    });
    const [a, d] = [
      await alice.call('donations.report', { month, refresh: false }),
      await dave.call('donations.report', { month, refresh: false }),
    ];
    expect(linesOf(d)).toEqual(linesOf(a));
    expect(a.reconciled && d.reconciled).toBe(true);
    expect(a.lines.find((l) => l.currencyCode === 'USD')?.declinedOpen.count).toBe(0);
  }, 180_000);

  it('still lists colleagues’ uploads after a restart while the team database cannot be reached', async () => {
    const before = await dave.call('donations.page', { offset: 0, limit: 100 });
    const uploadsBefore = (await dave.call('donations.summary', {})).uploads.map((u) => u.uploadId);
    await dave.runtime.close();
    // Same server, but the login is refused (as good as unreachable for this test): nothing is read.
    const refused = team.urlOf('dave').replace('dave-password', 'not-the-password');
    dave = await desks.reopenDave(refused);
    const after = await dave.call('donations.page', { offset: 0, limit: 100 });
    expect(after.total).toBe(before.total);
    expect((await dave.call('donations.summary', {})).uploads.map((u) => u.uploadId)).toEqual(uploadsBefore);
    // A refresh reads the service as ever; what needs the team database waits for it.
    const refreshed = await dave.call('donations.refresh', { limit: 100 });
    expect(refreshed.total).toBe(before.total);
    expect((await dave.call('donations.summary', {})).uploads.map((u) => u.uploadId)).toEqual(uploadsBefore);
    await dave.runtime.close();
    dave = await desks.reopenDave();
  }, 60_000);

  it('writes the shared ledger only through the desk’s functions, as the login that sent the upload', async () => {
    const [bulk] = await carol.teamBulks(
      (await team.query<{ k: string }>('SELECT environment_key AS k FROM desk.sent_bulk LIMIT 1')).rows[0]!.k,
    );
    expect(bulk?.sentBy).toBe('alice');
    // Dave may not rewrite alice's record (the function refuses), nor write the table at all.
    const daveDb = new PgTeamDatabase({ url: team.urlOf('dave') });
    try {
      await expect(daveDb.publishBulk({ ...bulk!, state: 'ERROR', takenTotals: [] })).rejects.toThrow(
        /Only alice, who sent upload/,
      );
    } finally {
      await daveDb.close();
    }
    const raw = await team.connect('dave');
    try {
      await expect(raw.query("UPDATE desk.sent_bulk SET state = 'ERROR'")).rejects.toThrow(
        /permission denied/,
      );
      await expect(raw.query('DELETE FROM desk.sent_one')).rejects.toThrow(/permission denied/);
      await expect(raw.query('DELETE FROM desk.dismissal')).rejects.toThrow(/permission denied/);
      await expect(
        raw.query("INSERT INTO desk.dismissal (environment_key, donation_id, reason) VALUES ('k', 'd', 'x')"),
      ).rejects.toThrow(/permission denied/);
      // A dismissed donation cannot be claimed for a correction, even by calling the function directly.
      const { rows } = await raw.query<{ k: string; id: string }>(
        "SELECT environment_key AS k, donation_id AS id FROM desk.dismissal WHERE dismissed_by = 'alice' LIMIT 1",
      );
      await expect(
        raw.query("SELECT * FROM desk.claim_correction($1, $2, 'single')", [rows[0]!.k, rows[0]!.id]),
      ).rejects.toMatchObject({ code: 'DD010' });
    } finally {
      await raw.end();
    }
  }, 60_000);
});
