/*
 * Whether a failed answer of the giving service means its scheduled maintenance, and how long the
 * desk then holds: until the window's end, looking again now and then in case the service is back
 * sooner (the downtime is "typically less than half" of the window). A hold is not a failure: no
 * retry storm, no back-off growing to hours, nothing counted against the upload.
 */
import { nextMaintenance, maintenanceAt, type MaintenanceWindow } from './maintenance';
import { instantOfWallTime, addDays, wallTimeIn } from './zonedTime';
import { SERVICE_TIME_ZONE } from './maintenance';

/**
 * The service's scheduled release dates its interface document lists (release 2023.8 to 2024.8):
 * Saturdays, about five weeks apart. Without announced dates the next window is guessed from the
 * last of these, five weeks at a time, and said to be a guess.
 */
export const DOCUMENTED_RELEASE_DATES: readonly string[] = [
  '2023-09-30',
  '2023-11-04',
  '2023-12-09',
  '2024-01-27',
  '2024-03-09',
  '2024-04-27',
  '2024-06-08',
  '2024-07-27',
  '2024-09-07',
  '2024-11-02',
  '2024-12-14',
];

/** The code the service (and the emulator) puts in a maintenance answer's error. */
export const MAINTENANCE_CODE = 'SCHEDULED_MAINTENANCE';

/**
 * The window in force or the next one: from the announced dates when any, else guessed from the
 * documented release dates (marked estimated either way once it is a guess).
 */
export function expectedMaintenance(now: Date, announced: readonly string[]): MaintenanceWindow | null {
  if (announced.length > 0) return nextMaintenance(now, announced);
  const guess = nextMaintenance(now, DOCUMENTED_RELEASE_DATES);
  return guess ? { ...guess, estimated: true } : null;
}

/** A failed answer, as the client saw it. */
export interface FailedAnswer {
  /** HTTP status; 0 when the service could not be reached at all. */
  status: number;
  /** The first error code of the answer's body, if any. */
  code?: string | undefined;
  /** The answer's Retry-After, in milliseconds. */
  retryAfterMs?: number | undefined;
}

export interface MaintenanceHold {
  /** When the desk expects the service back (the window's end). */
  until: Date;
  /** The calendar's window, when the hold is one of its windows. */
  window: MaintenanceWindow | null;
}

/** 24:00 Mountain Time at the end of the Mountain Time day of `now`. */
export function endOfMountainDay(now: Date): Date {
  const wall = wallTimeIn(now, SERVICE_TIME_ZONE);
  return instantOfWallTime(addDays(wall, 1), 0, 0, SERVICE_TIME_ZONE);
}

/**
 * Whether a failed answer means scheduled maintenance, and until when:
 * - the service said so (503 with SCHEDULED_MAINTENANCE): until the calendar's window end when one is
 *   in force, else its Retry-After, else 24:00 Mountain Time;
 * - a 503 or no answer at all while a window of the calendar (announced, or the guess) is in force:
 *   until that window's end.
 * Anything else is an ordinary failure (null).
 */
export function maintenanceHold(
  answer: FailedAnswer,
  now: Date,
  announced: readonly string[],
): MaintenanceHold | null {
  const expected = expectedMaintenance(now, announced);
  const inForce =
    maintenanceAt(now, announced) ??
    (expected && expected.start <= now && now < expected.end ? expected : null);
  if (answer.status === 503 && answer.code === MAINTENANCE_CODE) {
    if (inForce) return { until: inForce.end, window: inForce };
    if (answer.retryAfterMs !== undefined && answer.retryAfterMs > 0)
      return { until: new Date(now.getTime() + answer.retryAfterMs), window: null };
    return { until: endOfMountainDay(now), window: null };
  }
  if ((answer.status === 503 || answer.status === 0) && inForce)
    return { until: inForce.end, window: inForce };
  return null;
}

/**
 * How long to wait before asking the service again while a hold is in force: until its end, but
 * never longer than `lookEveryMs` (it may be back sooner), and never less than a second.
 */
export function holdDelayMs(hold: MaintenanceHold, now: Date, lookEveryMs: number): number {
  return Math.max(1_000, Math.min(hold.until.getTime() - now.getTime(), lookEveryMs));
}

/**
 * How long after it is sent an upload may still be with the service: processing may take up to 24
 * hours after upload and validation starts within a few minutes, so 24 hours and an hour's margin.
 */
export const UPLOAD_MAY_RUN_HOURS = 25;

/** The window (announced, or the guess) that starts before an upload sent now may be done, if any. */
export function maintenanceBeforeUploadDone(
  now: Date,
  announced: readonly string[],
): MaintenanceWindow | null {
  const window = expectedMaintenance(now, announced);
  if (!window) return null;
  return window.start.getTime() <= now.getTime() + UPLOAD_MAY_RUN_HOURS * 3_600_000 ? window : null;
}
