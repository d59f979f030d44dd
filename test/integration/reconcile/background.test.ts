import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/contract';
import { openDesk, startSandbox, uploadGifts, type Desk, type Sandbox } from './harness';

let s: Sandbox;
let desk: Desk;

beforeAll(async () => {
  s = await startSandbox();
  desk = await openDesk(s, { env: { DONATION_DESK_RECONCILE_POLL_MS: '100' } });
}, 30_000);

afterAll(async () => {
  await desk.runtime.close();
  await s.close();
});

describe('background refresh', () => {
  it('reads a processed bulk and follows its donations without being asked, then goes quiet', async () => {
    const jobs: string[] = [];
    desk.runtime.events.subscribe(<E extends EventName>(name: E, payload: EventPayload<E>) => {
      const status = payload as EventPayload<'job.status'>;
      if (name === 'job.status' && status.kind === 'donations') jobs.push(status.jobId);
    });
    // Nothing uploaded yet: the timer runs but asks the service nothing.
    await new Promise((r) => setTimeout(r, 350));
    expect(jobs).toEqual([]);

    await uploadGifts(s, desk, [
      { recipient: s.good[0] as string, amount: '1.00', currency: 'USD' },
      { recipient: s.unknownCause, amount: '2.00', currency: 'USD' },
    ]);
    const seen = async (test: (states: string[]) => boolean): Promise<string[]> => {
      for (let i = 0; i < 100; i++) {
        const states = (await desk.call('donations.list', { cached: true })).donations
          .map((d) => d.state)
          .sort();
        if (test(states)) return states;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the background refresh did not catch up');
    };
    expect(await seen((st) => st.length === 2)).toEqual(['ACCEPTED', 'ACCEPTED']);
    await s.emu.advance(12 * 3600);
    expect(await seen((st) => st.every((x) => x === 'CLEARED' || x === 'DECLINED'))).toEqual([
      'CLEARED',
      'DECLINED',
    ]);
    // Everything final: once the refresh that saw it has ended, no further jobs.
    await new Promise((r) => setTimeout(r, 300));
    const before = jobs.length;
    await new Promise((r) => setTimeout(r, 400));
    expect(jobs.length).toBe(before);
    expect(jobs.every((j) => j.startsWith('background-'))).toBe(true);
  });
});
