import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDesk, startSandbox, type Desk, type Sandbox } from './harness';

let s: Sandbox;
let desk: Desk;

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s);
}, 30_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

async function causeName(id: string): Promise<string> {
  const token = await desk.runtime.environments.resolve().then((r) => r.tokens.accessToken());
  const r = await fetch(`${s.emu.apiBaseUrl}/causes/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await r.json()) as { data: { attributes: { name: string } } }).data.attributes.name;
}

describe('cause suggestions', () => {
  it('say when a cause cannot receive money, once a donation to it was declined for that', async () => {
    const unable = s.notInGoodStanding[0] as string;
    const name = await causeName(unable);
    const before = await desk.call('causes.autocomplete', { q: name });
    expect(before.causes.find((c) => c.id === unable)?.cannotReceive).toBeNull();

    const sent = await desk.call('donations.create', {
      clientRef: randomUUID(),
      form: { fields: { recipientId: unable, amount: '40.00', currencyCode: 'USD' }, metadata: [] },
    });
    await s.emu.advance(900);
    await desk.call('donations.list', {});

    const after = await desk.call('causes.autocomplete', { q: name });
    const suggested = after.causes.find((c) => c.id === unable);
    expect(suggested?.cannotReceive).toMatchObject({
      code: 'CAUSE_NOT_IN_GOOD_STANDING',
      reason: 'The cause cannot receive donations at the moment',
      donationId: sent.donation.id,
    });
    // Other causes offered with it carry no warning.
    expect(after.causes.filter((c) => c.id !== unable).every((c) => c.cannotReceive === null)).toBe(true);
    const checked = await desk.call('causes.check', { recipientId: unable });
    expect(checked.status).toBe('found');
    expect(checked.cannotReceive?.code).toBe('CAUSE_NOT_IN_GOOD_STANDING');
    const good = await desk.call('causes.check', { recipientId: s.good[0] as string });
    expect(good.cannotReceive).toBeNull();
    // A cause chosen from a search result by its name says so too.
    const chosen = await desk.call('search.recipient', { causeName: name });
    expect(chosen).toMatchObject({
      recipientId: unable,
      cannotReceive: { code: 'CAUSE_NOT_IN_GOOD_STANDING' },
    });
  }, 60_000);
});
