import { ImportCancelledError } from './errors';
import type { ReadSpreadsheetOptions } from './types';

/** How long parsing may hold its thread before it yields, so a cancel message can be received. */
const SLICE_MS = 40;

/**
 * Progress and cancellation for a long parse. Parsing is synchronous work, so in a Web Worker an
 * abort message only arrives when we yield to the event loop: `maybeYield` does that at most every
 * SLICE_MS, which keeps the overhead small while cancel stays prompt.
 */
export class WorkMonitor {
  private lastYield = Date.now();

  constructor(
    private readonly options: Pick<ReadSpreadsheetOptions, 'onProgress' | 'signal' | 'isCancelled'>,
  ) {}

  throwIfCancelled(): void {
    if (this.options.signal?.aborted || this.options.isCancelled?.()) throw new ImportCancelledError();
  }

  progress(done: number, total: number): void {
    this.options.onProgress?.(done, total);
  }

  /** True when enough time has passed that the caller should report progress and `await yieldNow()`. */
  dueForYield(): boolean {
    return Date.now() - this.lastYield >= SLICE_MS;
  }

  async yieldNow(): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    this.lastYield = Date.now();
    this.throwIfCancelled();
  }
}
