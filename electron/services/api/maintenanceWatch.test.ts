import { describe, expect, it } from 'vitest';
import { MaintenanceWatch } from './maintenanceWatch';

const start = Date.parse('2026-12-06T02:00:00Z'); // Saturday 5 December, 19:00 Mountain Time

function watch(dates: string[] = ['2026-12-05']) {
  let now = start;
  const seen: Array<string | null> = [];
  const w = new MaintenanceWatch(
    () => dates,
    () => now,
  );
  w.onChange((state) => seen.push(state?.until ?? null));
  return { w, seen, move: (ms: number) => (now += ms) };
}

describe('the maintenance watch', () => {
  it('turns a maintenance answer into MAINTENANCE with the window’s end, and tells of it once', () => {
    const { w, seen } = watch();
    const failure = w.failure({ status: 503, code: 'SCHEDULED_MAINTENANCE', retryAfterMs: 1_000 });
    expect(failure?.code).toBe('MAINTENANCE');
    expect(failure?.details).toEqual({ until: '2026-12-06T07:00:00.000Z' });
    expect(failure?.message).toContain('until 24:00 Mountain Time');
    w.failure({ status: 503, code: 'SCHEDULED_MAINTENANCE' });
    expect(seen).toEqual(['2026-12-06T07:00:00.000Z']);
    expect(w.failure({ status: 500 })).toBeNull();
  });

  it('lets one request look every interval while it holds, and ends at an answer', () => {
    const { w, seen, move } = watch();
    expect(w.waitMs(60_000)).toBeNull();
    w.failure({ status: 503, code: 'SCHEDULED_MAINTENANCE' });
    expect(w.waitMs(60_000)).toBe(60_000);
    move(45_000);
    expect(w.waitMs(60_000)).toBe(15_000);
    move(15_000);
    expect(w.waitMs(60_000)).toBeNull();
    expect(w.waitMs(60_000)).toBe(60_000);
    expect(w.holdDelay(60_000)).toBe(60_000);
    w.answered();
    expect(w.current()).toBeNull();
    expect(w.holdDelay(60_000)).toBeNull();
    expect(seen.at(-1)).toBeNull();
  });

  it('is over by itself at the window’s end', () => {
    const { w, move } = watch();
    w.failure({ status: 503 });
    expect(w.current()?.until).toBe('2026-12-06T07:00:00.000Z');
    move(5 * 3_600_000);
    expect(w.current()).toBeNull();
    expect(w.waitMs(60_000)).toBeNull();
  });
});
