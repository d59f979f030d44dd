/*
 * What the desk knows of the service's scheduled maintenance right now: the announced dates (from
 * Settings) and, once an answer said so, the hold in force. Every client of one desk shares it, so
 * one answer saying "maintenance" holds the follow, the resume and the refresh alike, and while the
 * hold lasts only one request per look interval goes to the service to see whether it is back.
 */
import {
  holdDelayMs,
  maintenanceHold,
  maintenanceUntilWords,
  type FailedAnswer,
  type MaintenanceHold,
} from '../../../shared/service-calendar';
import { DeskFailure } from '../../../shared/result';

export interface MaintenanceState {
  /** When the service is expected back (ISO 8601). */
  until: string;
  /** "The giving service is in scheduled maintenance until 24:00 Mountain Time (07:00 your time)." */
  message: string;
}

export class MaintenanceWatch {
  private hold: MaintenanceHold | null = null;
  private lastLook = 0;
  private readonly listeners = new Set<(state: MaintenanceState | null) => void>();

  constructor(
    /** The announced maintenance dates (Settings). */
    private readonly announced: () => readonly string[] = () => [],
    private readonly now: () => number = Date.now,
  ) {}

  /** Hears every change of the hold (a new one, a new end, or its end). */
  onChange(listener: (state: MaintenanceState | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The hold in force, if any (one whose end has passed is over). */
  current(): MaintenanceState | null {
    if (this.hold && this.hold.until.getTime() <= this.now()) this.end();
    return this.hold ? this.state(this.hold) : null;
  }

  /**
   * A failed answer: a MAINTENANCE failure to throw instead of the ordinary one when it means the
   * scheduled maintenance (the hold starts or lasts), else null.
   */
  failure(answer: FailedAnswer): DeskFailure | null {
    const now = new Date(this.now());
    const hold = maintenanceHold(answer, now, this.announced());
    if (!hold) return null;
    const changed = this.hold?.until.getTime() !== hold.until.getTime();
    this.hold = hold;
    this.lastLook = now.getTime();
    const state = this.state(hold);
    if (changed) this.tell(state);
    return new DeskFailure('MAINTENANCE', state.message, { until: state.until });
  }

  /** An answer came: whatever hold there was is over. */
  answered(): void {
    if (this.hold) this.end();
  }

  /**
   * While a hold is in force: how long to wait before asking again (null when a request may go
   * now). Across the desk one request per `lookEveryMs` looks whether the service is back.
   */
  waitMs(lookEveryMs: number): number | null {
    if (!this.current() || !this.hold) return null;
    const now = this.now();
    if (now - this.lastLook >= lookEveryMs) {
      this.lastLook = now;
      return null;
    }
    return holdDelayMs(this.hold, new Date(now), lookEveryMs - (now - this.lastLook));
  }

  /** How long a loop held by the maintenance waits before its next try, or null when none holds. */
  holdDelay(lookEveryMs: number): number | null {
    const hold = this.current() ? this.hold : null;
    return hold ? holdDelayMs(hold, new Date(this.now()), lookEveryMs) : null;
  }

  private state(hold: MaintenanceHold): MaintenanceState {
    return {
      until: hold.until.toISOString(),
      message: maintenanceUntilWords(hold.until, new Date(this.now())),
    };
  }

  private end(): void {
    this.hold = null;
    this.tell(null);
  }

  private tell(state: MaintenanceState | null): void {
    for (const listener of this.listeners) listener(state);
  }
}
