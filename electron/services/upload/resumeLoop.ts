/*
 * Resuming unfinished uploads: one pass at a time (a second call while one runs shares it), and
 * passes asked for "later" after a back-off that grows while passes keep failing or waiting and
 * starts again from the shortest delay after a pass where everything went well. During the service's
 * scheduled maintenance the passes wait for its end instead, without counting as failures.
 */
import { backoffDelay } from '../api/backoff';

export class ResumeLoop {
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private run: Promise<void> | null = null;
  private closed = false;

  constructor(
    /** One pass; resolves true when it went through and nothing failed or waits. */
    private readonly pass: () => Promise<boolean>,
    private readonly delays: { minMs: number; maxMs: number },
    /**
     * While the service is in its scheduled maintenance, the wait before the next pass (null when
     * none holds): a pass held by it is not a failure, so the back-off neither grows nor applies.
     */
    private readonly held: () => number | null = () => null,
  ) {}

  /** A pass now (the one running, if any). */
  now(): Promise<void> {
    this.run ??= this.once().finally(() => {
      this.run = null;
    });
    return this.run;
  }

  private async once(): Promise<void> {
    if (this.closed) return;
    if (await this.pass()) this.failures = 0;
  }

  /** A pass after the back-off delay, or after `fixedMs` (nothing more when one is already planned). */
  later(fixedMs?: number): void {
    if (this.closed || this.timer) return;
    const delay =
      this.held() ??
      fixedMs ??
      backoffDelay(this.failures++, { baseMs: this.delays.minMs, maxMs: this.delays.maxMs });
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.now();
    }, delay);
    this.timer.unref();
  }

  /** No more passes; resolves when the one running has ended. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.run?.catch(() => undefined);
  }
}
