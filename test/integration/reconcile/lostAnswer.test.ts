import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLACES_KEY } from '../../../shared/mapping';
import { databaseOf } from '../../../electron/services/db/deskDatabase';
import {
  expectFailure,
  openDesk,
  serviceFaults,
  startSandbox,
  uploadGifts,
  type Desk,
  type Sandbox,
} from './harness';
import { getToken } from '../emulator/helpers';

let s: Sandbox;
let desk: Desk;
let bulkId: string;

/** A correction sent while the service answers every request with 500: no answer, so it may exist. */
async function correctWithoutAnswer(donationId: string, recipientId: string): Promise<void> {
  await serviceFaults(s, { error500Rate: 1 });
  try {
    const lost = await expectFailure(
      desk.call('donations.correct', { donationId, changes: { recipientId } }),
    );
    expect(lost.code).toBe('AMBIGUOUS');
  } finally {
    await serviceFaults(s, { reset: true });
  }
}

/**
 * A donation made at the service by another way in: as if a lost answer's request had landed, or
 * made by another system.
 */
async function landAtService(
  recipientId: string,
  amount: number,
  metadata: Record<string, string>,
): Promise<string> {
  const token = await getToken(s.emu);
  const created = await fetch(`${s.emu.apiBaseUrl}/donations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({
      data: {
        type: 'donations',
        attributes: {
          destination: { recipientId },
          funds: { amount, currencyCode: 'USD', paymentType: 'DONATION_REPORT' },
          metadata,
        },
      },
    }),
  });
  if (created.status !== 201) throw new Error(await created.text());
  return ((await created.json()) as { data: { id: string } }).data.id;
}

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
  bulkId = await uploadGifts(s, desk, [
    { recipient: s.good[0] as string, amount: '10.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '11.00', currency: 'USD' },
    { recipient: s.unknownCause, amount: '12.00', currency: 'USD' },
  ]);
  await s.emu.advance(36_000);
  await desk.call('donations.list', {});
}, 60_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

describe('a correction whose answer never came', () => {
  it('is found by reading every donation of the account when it was made, and not sent again', async () => {
    const listed = await desk.call('donations.list', { bulkIds: [bulkId], cached: true });
    const declined = listed.donations.filter((d) => d.state === 'DECLINED');
    expect(declined).toHaveLength(2);
    const [made, notMade] = declined as [(typeof declined)[0], (typeof declined)[0]];

    await correctWithoutAnswer(made.id, s.good[1] as string);
    await correctWithoutAnswer(notMade.id, s.good[2] as string);
    const replacementId = await landAtService(s.good[1] as string, made.amount, { [REPLACES_KEY]: made.id });
    // A donation of the same account that another system made.
    const elsewhere = await landAtService(s.good[0] as string, 999, { team: 'payroll-giving' });

    // Reading the uploads alone cannot see it (a single donation belongs to no bulk)…
    const uploads = await desk.call('donations.list', {});
    expect(uploads.donations.find((d) => d.id === made.id)?.resolution?.kind).toBe('replacing');
    const sentAt = uploads.donations.find((d) => d.id === made.id)?.resolution?.at;
    // …every donation of the account can.
    await desk.call('donations.list', { bulkIds: [] });
    // Found later, it counts from when it was sent (the month-end report goes by that).
    const stored = databaseOf(s.dataDir).get<{ first_seen_at: string }>(
      'SELECT first_seen_at FROM donation WHERE environment = ? AND id = ?',
      'offline',
      replacementId,
    );
    expect(stored?.first_seen_at).toBe(sentAt);
    const after = await desk.call('donations.list', { cached: true });
    const found = after.donations.find((d) => d.id === made.id);
    expect(found?.resolution).toMatchObject({ kind: 'replaced', replacementId });
    expect(after.donations.find((d) => d.id === replacementId)?.replaces).toBe(made.id);
    // What this app did not make is read past, not kept.
    const kept = await desk.call('donations.list', { bulkIds: [], cached: true });
    expect(kept.donations.some((d) => d.id === elsewhere)).toBe(false);
    expect(kept.donations.some((d) => d.id === replacementId)).toBe(true);
    const again = await expectFailure(
      desk.call('donations.correct', {
        donationId: made.id,
        changes: { recipientId: s.good[1] as string },
        confirmRetry: true,
      }),
    );
    expect(again.code).toBe('ALREADY_RESOLVED');

    // The one that was never made is still open after the search, and is sent again when asked.
    expect(after.donations.find((d) => d.id === notMade.id)?.resolution?.kind).toBe('replacing');
    const summary = await desk.call('donations.summary', {});
    expect(summary.uploads.find((u) => u.bulkIds.includes(bulkId))?.declinedOpen).toBe(1);
    const sent = await desk.call('donations.correct', {
      donationId: notMade.id,
      changes: { recipientId: s.good[2] as string },
      confirmRetry: true,
    });
    expect(sent.declined.resolution).toMatchObject({ kind: 'replaced', replacementId: sent.replacement.id });
  });
});
