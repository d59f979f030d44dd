/*
 * Work that must not overlap: starts and resends run one after another, and each upload is sent
 * under its own lock, so no row is ever in two sends at once. A failure does not block what follows.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Resolves once everything queued so far has ended (never rejects). */
  idle(): Promise<unknown> {
    return this.tail.catch(() => undefined);
  }
}

export class KeyedLocks {
  private readonly locks = new Map<string, Promise<unknown>>();

  with<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.locks.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  /** Resolves once every lock taken so far is free. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
  }
}
