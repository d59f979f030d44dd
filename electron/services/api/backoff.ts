/** Delays between retries: exponential growth with jitter, and the service's Retry-After when it gives one. */
export interface BackoffPolicy {
  /** Delay before the first retry, before jitter. */
  baseMs: number;
  /** No computed delay exceeds this. */
  maxMs: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
  /** The longest Retry-After honoured as given; longer asks are capped (a person is waiting). Default 5 min. */
  maxRetryAfterMs?: number;
}

/**
 * Delay before retry number `attempt` (0-based). "Equal jitter": half the exponential delay is kept,
 * the other half is random, so clients that failed together do not retry together, yet no retry
 * comes back almost at once.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const factor = policy.factor ?? 2;
  const exponential = Math.min(policy.maxMs, policy.baseMs * factor ** Math.max(0, attempt));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** The delay to wait: the service's Retry-After when given (capped), else the jittered backoff. */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs ?? 300_000);
  return backoffDelay(attempt, policy, random);
}
