import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter, retryDelay } from './backoff';

describe('backoff', () => {
  const policy = { baseMs: 100, maxMs: 1_000 };

  it('grows exponentially, keeps half the delay fixed, and caps at maxMs', () => {
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(3, policy, () => 0)).toBe(400);
    expect(backoffDelay(3, policy, () => 1)).toBe(800);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
    expect(backoffDelay(10, policy, () => 0)).toBe(500);
  });

  it('spreads retries with jitter', () => {
    const seen = new Set(Array.from({ length: 50 }, () => backoffDelay(2, policy)));
    expect(seen.size).toBeGreaterThan(5);
    for (const d of seen) expect(d).toBeGreaterThanOrEqual(200);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Thu, 01 Jan 2025 00:00:05 GMT', now)).toBe(0);
  });

  it('honours Retry-After over the computed backoff, capped', () => {
    expect(retryDelay(5, policy, 2_000, () => 0)).toBe(2_000);
    expect(retryDelay(0, { ...policy, maxRetryAfterMs: 10_000 }, 3_600_000)).toBe(10_000);
    expect(retryDelay(0, policy, undefined, () => 0)).toBe(50);
  });
});
