import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  driveToEnd as driveToEndOf,
  followUpload,
  giftsWorkspace,
  openDesk,
  serviceFaults,
  startSandbox,
  type Desk,
  type GiftRow,
  type Sandbox,
} from './harness';

let s: Sandbox;
let desk: Desk;

beforeEach(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
}, 30_000);

afterEach(async () => {
  await desk.runtime.close();
  await s.close();
});

const workspaceOf = (gifts: GiftRow[]) => giftsWorkspace(desk, gifts, { name: 'November gifts' });
const driveToEnd = (intentId: string) => driveToEndOf(s, desk, intentId);

/** Moves the service's clock on and refreshes the way the Refresh button does, until nothing is open. */
async function refreshUntilSettled(): Promise<void> {
  for (let round = 0; round < 60; round++) {
    await s.emu.advance(600);
    const listed = await desk.call('donations.list', {});
    if (listed.donations.every((d) => d.state === 'CLEARED' || d.state === 'DECLINED')) return;
  }
  throw new Error('donations did not settle');
}

describe('the month-end, as a first run walks it', () => {
  it('Refresh from the service also follows donations sent one by one (form donations, corrections)', async () => {
    const good = await desk.call('donations.create', {
      clientRef: randomUUID(),
      form: {
        fields: { recipientId: s.good[0] as string, amount: '25.00', currencyCode: 'USD' },
        metadata: [],
      },
    });
    const bad = await desk.call('donations.create', {
      clientRef: randomUUID(),
      form: {
        fields: { recipientId: s.notInGoodStanding[0] as string, amount: '30.00', currencyCode: 'USD' },
        metadata: [],
      },
    });
    expect(good.donation.state).toBe('ACCEPTED');
    // What the Refresh button sends: the uploads' donations (no bulk filter given), not cached.
    for (let i = 0; i < 4; i++) {
      await s.emu.advance(900);
      await desk.call('donations.list', {});
    }
    const listed = await desk.call('donations.list', { cached: true });
    const stateOf = (id: string) => listed.donations.find((d) => d.id === id)?.state;
    expect(stateOf(bad.donation.id)).toBe('DECLINED');
    expect(stateOf(good.donation.id)).not.toBe('ACCEPTED');
    const declined = listed.donations.find((d) => d.id === bad.donation.id);
    expect(declined?.errors[0]?.code).toBe('CAUSE_NOT_IN_GOOD_STANDING');
  }, 60_000);

  it('an upload not yet read says so, and not “does not add up” in minor units', async () => {
    const id = await workspaceOf([
      { recipient: s.good[0] as string, amount: '12.34', currency: 'USD' },
      { recipient: s.good[1] as string, amount: '100.00', currency: 'EUR' },
    ]);
    const started = await desk.call('upload.start', { workspaceId: id });
    await followUpload(s, desk, started.uploadId);
    const before = await desk.call('donations.summary', {});
    expect(before.uploads).toHaveLength(1);
    expect(before.uploads[0]).toMatchObject({ notReadYet: true, reconciled: false });
    expect(before.uploads[0]?.notes.join(' ')).toMatch(/Not read from the service yet/);
    expect(before.uploads[0]?.notes.join(' ')).not.toMatch(/minor units/);

    await desk.call('donations.list', {});
    const after = await desk.call('donations.summary', {});
    expect(after.uploads[0]).toMatchObject({ notReadYet: false, reconciled: true, notes: [] });
  }, 60_000);

  it('a difference is told in counts and money a person reads', async () => {
    const id = await workspaceOf([
      { recipient: s.good[0] as string, amount: '12.34', currency: 'USD' },
      { recipient: s.good[1] as string, amount: '5.00', currency: 'USD' },
    ]);
    const started = await desk.call('upload.start', { workspaceId: id });
    await followUpload(s, desk, started.uploadId);
    // Only the accepted ones are read: the other donation stays unseen, a real difference.
    await desk.call('donations.list', { status: 'INITIATED' });
    const summary = await desk.call('donations.summary', {});
    expect(summary.uploads[0]?.reconciled).toBe(false);
    expect(summary.uploads[0]?.notReadYet).toBe(false);
    expect(summary.uploads[0]?.notes[0]).toBe(
      'USD: 2 donations for $17.34 sent, but 0 donations for $0.00 found at the service. Refresh from the service; if it stays, ask the service about this upload.',
    );
  }, 60_000);

  it('a partial extraction repaired by a corrected upload reconciles, and so does the month', async () => {
    const gifts: GiftRow[] = [
      { recipient: s.good[0] as string, amount: '30.00', currency: 'USD' },
      { recipient: s.good[1] as string, amount: '100.00', currency: 'EUR' },
      { recipient: s.good[2] as string, amount: '7.25', currency: 'USD' },
      { recipient: s.good[3] as string, amount: '12.00', currency: 'EUR' },
      { recipient: s.good[4] as string, amount: '1.99', currency: 'USD' },
    ];
    await serviceFaults(s, { partialExtractionFailure: { afterDonations: 2 } });
    const id = await workspaceOf(gifts);
    const started = await desk.call('upload.start', { workspaceId: id });
    const intentId = started.upload.intents.at(-1)?.intentId as string;
    const end = await driveToEnd(intentId);
    expect(end.state).toBe('ERROR');
    expect(end.donations).toBe(2);
    await serviceFaults(s, { partialExtractionFailure: null });
    const resent = await desk.call('upload.resend', { intentId });
    expect(resent.upload.rows).toBe(3);
    await driveToEnd(resent.upload.intents.at(-1)?.intentId as string);

    await refreshUntilSettled();
    const summary = await desk.call('donations.summary', {});
    expect(summary.uploads).toHaveLength(2);
    const [partial, repair] = summary.uploads;
    // The part that stopped counts what was sent for exactly the two rows that got a donation.
    const sentForTwo = [...(partial?.submitted ?? [])].map((t) => [t.currencyCode, t.count, t.amount]);
    expect(sentForTwo).toEqual([
      ['EUR', 1, 10000],
      ['USD', 1, 3000],
    ]);
    expect(partial).toMatchObject({ reconciled: true, notes: [] });
    expect(repair).toMatchObject({ reconciled: true, notes: [] });

    const month = started.upload.createdAt.slice(0, 7);
    const report = await desk.call('donations.report', { month, refresh: false });
    expect(report.reconciled).toBe(true);
    const byCurrency = new Map(report.lines.map((l) => [l.currencyCode, l]));
    expect(byCurrency.get('USD')?.submitted).toEqual({ count: 3, amount: 3000 + 725 + 199 });
    expect(byCurrency.get('EUR')?.submitted).toEqual({ count: 2, amount: 10000 + 1200 });
  }, 120_000);
});
