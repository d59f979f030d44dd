import { afterEach, describe, expect, it, vi } from 'vitest';
import { MaintenanceWatch } from '../api/maintenanceWatch';
import type { DonationStore } from './donationStore';
import { startBackgroundRefresh, type BackgroundRefresh } from './donationRefresh';
import type { LedgerSummaryView } from './ledgerView';
import type { ReconcileRuntime } from './reconcileContext';

let background: BackgroundRefresh | null = null;
afterEach(async () => {
  await background?.close();
  background = null;
  vi.useRealTimers();
});

const emptyLedger: LedgerSummaryView = { groups: [], intents: [], bulks: [], byBulkId: new Map() };

/** A runtime whose store says which bulks and single donations are still open. */
function runtime(
  open: { bulks: string[]; singles: number },
  maintenance = new MaintenanceWatch(),
): ReconcileRuntime {
  const store = {
    bulkStates: () => ({ open: open.bulks, listed: open.bulks }),
    openSingles: () => Array.from({ length: open.singles }, () => ({})),
  } as unknown as DonationStore;
  return {
    running: new Map(),
    environments: { maintenance },
    context: () =>
      Promise.resolve({
        environment: 'production',
        store,
        ledger: emptyLedger,
        local: emptyLedger,
        teamPartials: new Map(),
      }),
  } as unknown as ReconcileRuntime;
}

describe('the background refresh', () => {
  it('refreshes every so often while something is open, as a background job', async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(() => Promise.resolve());
    background = startBackgroundRefresh(runtime({ bulks: ['b1'], singles: 0 }), 1_000, refresh);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    // Only the total comes back: nobody reads a background refresh's list of donations.
    expect(refresh).toHaveBeenCalledWith({ jobId: expect.stringMatching(/^background-/), limit: 0 });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('asks nothing of the service when nothing is open, and keeps going after a failure', async () => {
    vi.useFakeTimers();
    const quiet = vi.fn(() => Promise.resolve());
    background = startBackgroundRefresh(runtime({ bulks: [], singles: 0 }), 1_000, quiet);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(quiet).not.toHaveBeenCalled();
    await background.close();

    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    background = startBackgroundRefresh(runtime({ bulks: [], singles: 1 }), 1_000, failing);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('asks nothing of the service during its scheduled maintenance, and goes on after it', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-06T02:00:00Z') });
    const maintenance = new MaintenanceWatch(() => ['2026-12-05']);
    maintenance.failure({ status: 503, code: 'SCHEDULED_MAINTENANCE' });
    const refresh = vi.fn(() => Promise.resolve());
    background = startBackgroundRefresh(runtime({ bulks: ['b1'], singles: 0 }, maintenance), 60_000, refresh);
    // Saturday 19:00 to 24:00 Mountain Time: five hours without a call.
    await vi.advanceTimersByTimeAsync(5 * 3_600_000 - 1);
    expect(refresh).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('never starts without a period, and aborts the listings running when closed', async () => {
    vi.useFakeTimers();
    const refresh = vi.fn(() => Promise.resolve());
    const rt = runtime({ bulks: ['b1'], singles: 0 });
    background = startBackgroundRefresh(rt, 0, refresh);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refresh).not.toHaveBeenCalled();
    const listing = new AbortController();
    rt.running.set('j1', listing);
    await background.close();
    expect(listing.signal.aborted).toBe(true);
  });

  it('refreshes now when asked (a colleague’s bulk moved), once more after one in flight, never once closed', async () => {
    let release: () => void = () => undefined;
    const refresh = vi
      .fn<() => Promise<void>>()
      .mockImplementationOnce(() => new Promise<void>((r) => (release = r)))
      .mockResolvedValue(undefined);
    background = startBackgroundRefresh(runtime({ bulks: ['b1'], singles: 0 }), 0, refresh);
    const first = background.now();
    await vi.waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
    // Asked again while the first reads: it may have begun before the news, so another follows it.
    const second = background.now();
    const third = background.now();
    release();
    await Promise.all([first, second, third]);
    expect(refresh).toHaveBeenCalledTimes(2);
    await background.close();
    await background.now();
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
