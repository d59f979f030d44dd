import { afterEach, describe, expect, it, vi } from 'vitest';

/* Reconcile's first answers, asked for by the shell with the page's code and taken by the page once. */

type Call = { channel: string; args: unknown; answer: (value: unknown) => void };
const calls: Call[] = [];
const ask =
  (channel: string) =>
  (args: unknown): Promise<unknown> =>
    new Promise((answer) => calls.push({ channel, args, answer }));
vi.mock('../../app/deskClient', () => ({
  desk: { 'donations.page': ask('donations.page'), 'donations.summary': ask('donations.summary') },
}));
const { startFirstReads, takeFirstReads } = await import('./firstReads');

afterEach(() => {
  calls.splice(0);
  vi.useRealTimers();
  takeFirstReads();
  calls.splice(0);
});

const answer = (channel: string, value: unknown, which = 0) =>
  calls.filter((c) => c.channel === channel)[which]?.answer({ ok: true, value });

describe("Reconcile's first reads", () => {
  it('asks for the first page, the totals and the declined list at once, and is ready when the first two are in', async () => {
    let ready = false;
    void startFirstReads(10_000).then(() => (ready = true));
    expect(calls.map((c) => [c.channel, c.args])).toEqual([
      ['donations.page', { offset: 0, limit: 50 }],
      ['donations.summary', {}],
      ['donations.page', { status: 'DECLINED', order: 'openFirst', offset: 0, limit: 500 }],
    ]);
    answer('donations.page', { total: 1 });
    await Promise.resolve();
    expect(ready).toBe(false);
    answer('donations.summary', { byStatus: [] });
    await vi.waitFor(() => expect(ready).toBe(true));
    // The page takes them, with what has come, once: a later visit asks anew.
    const reads = takeFirstReads();
    expect(reads.answered).toEqual({
      page: { ok: true, value: { total: 1 } },
      summary: { ok: true, value: { byStatus: [] } },
    });
    expect(calls).toHaveLength(3);
    expect(takeFirstReads()).not.toBe(reads);
    expect(calls).toHaveLength(6);
  });

  it('does not hold the page back longer than it was told when main is slow', async () => {
    vi.useFakeTimers();
    let ready = false;
    void startFirstReads(300).then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
    expect(takeFirstReads().answered).toEqual({});
  });

  it('leaves reads started long ago: the page asks again', async () => {
    vi.useFakeTimers();
    void startFirstReads(0);
    await vi.advanceTimersByTimeAsync(6_000);
    const asked = calls.length;
    takeFirstReads();
    expect(calls.length).toBe(asked + 3);
  });

  it('asks for the declined list once the code has come, when told to wait for it', async () => {
    let arrive: (value: unknown) => void = () => undefined;
    const code = new Promise((resolve) => (arrive = resolve));
    void startFirstReads(10_000, code);
    expect(calls.map((c) => c.channel)).toEqual(['donations.page', 'donations.summary']);
    arrive({});
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]?.args).toMatchObject({ status: 'DECLINED', limit: 500 });
  });
});
