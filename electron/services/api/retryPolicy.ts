import type { BackoffPolicy } from './backoff';

export interface RetryOptions extends BackoffPolicy {
  /** Attempts in all for an idempotent call (the first plus retries). */
  attempts: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  attempts: 6,
  baseMs: 500,
  maxMs: 30_000,
  maxRetryAfterMs: 120_000,
};

/**
 * For calls a person is waiting on (search, causes, locations): a few quick tries rather than the
 * upload's patient backoff, so a failing service is reported within seconds.
 */
export const INTERACTIVE_RETRY: Partial<RetryOptions> = { attempts: 3, baseMs: 400, maxMs: 2_000 };
