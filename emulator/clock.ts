/**
 * Virtual time. It runs at `timeScale` virtual seconds per real second (0 freezes it, which tests use
 * so that nothing moves unless they advance it) and can be pushed forward, never back.
 */
export class VirtualClock {
  private anchorReal: number;
  private anchorVirtual: number;

  constructor(
    private readonly timeScale: number,
    startVirtualMs: number,
  ) {
    this.anchorReal = Date.now();
    this.anchorVirtual = startVirtualMs;
  }

  nowMs(): number {
    return Math.floor(this.anchorVirtual + (Date.now() - this.anchorReal) * this.timeScale);
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  advance(seconds: number): void {
    const current = this.nowMs();
    this.anchorReal = Date.now();
    this.anchorVirtual = current + Math.round(seconds * 1000);
  }

  /** The gap between virtual and real time, persisted so that a restart continues the same timeline. */
  offsetMs(): number {
    return this.nowMs() - Date.now();
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
