import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResumeLoop } from './resumeLoop';

afterEach(() => {
  vi.useRealTimers();
});

describe('ResumeLoop', () => {
  it('shares the pass running with a second call', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pass = vi.fn(async () => {
      await gate;
      return true;
    });
    const loop = new ResumeLoop(pass, { minMs: 10, maxMs: 100 });
    const first = loop.now();
    const second = loop.now();
    expect(second).toBe(first);
    release();
    await first;
    expect(pass).toHaveBeenCalledTimes(1);
    await loop.now();
    expect(pass).toHaveBeenCalledTimes(2);
  });

  it('plans one pass at a time later, and none once closed', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(async () => false);
    const loop = new ResumeLoop(pass, { minMs: 10, maxMs: 100 });
    loop.later();
    loop.later();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pass).toHaveBeenCalledTimes(1);
    loop.later();
    await loop.close();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pass).toHaveBeenCalledTimes(1);
    await loop.now();
    expect(pass).toHaveBeenCalledTimes(1);
  });

  it('waits the delay it is given (a decision awaited) instead of the back-off, which it leaves as it was', async () => {
    vi.useFakeTimers();
    const pass = vi.fn(async () => false);
    const loop = new ResumeLoop(pass, { minMs: 10, maxMs: 100 });
    loop.later(600_000);
    await vi.advanceTimersByTimeAsync(599_999);
    expect(pass).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(pass).toHaveBeenCalledTimes(1);
    // The back-off did not grow: the next plain pass comes after the shortest delay, or about.
    loop.later();
    await vi.advanceTimersByTimeAsync(20);
    expect(pass).toHaveBeenCalledTimes(2);
    await loop.close();
  });

  it('waits for the maintenance’s end while it holds, without growing the back-off', async () => {
    vi.useFakeTimers();
    let held: number | null = 600_000;
    const pass = vi.fn(async () => false);
    const loop = new ResumeLoop(pass, { minMs: 1_000, maxMs: 3_600_000 }, () => held);
    for (let i = 0; i < 5; i++) {
      loop.later();
      await vi.advanceTimersByTimeAsync(599_999);
      expect(pass).toHaveBeenCalledTimes(i);
      await vi.advanceTimersByTimeAsync(1);
      expect(pass).toHaveBeenCalledTimes(i + 1);
    }
    // Held five times, failed none: the first pass after the maintenance comes within a second or so.
    held = null;
    loop.later();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pass).toHaveBeenCalledTimes(6);
    await loop.close();
  });
});
