/*
 * The giving service's calendar, as its interface document states it: scheduled maintenance takes the
 * platform (and the sandbox) offline on a Saturday from 18:00 to 24:00 Mountain Time, about every
 * five weeks, on dates the service announces; the sandbox is staffed 9:00–17:00 Mountain Time,
 * Monday to Friday. Mountain Time is America/Denver, daylight saving included.
 */
import { addDays, instantOfWallTime, isoDate, parseIsoDate, wallTimeIn, weekdayOf } from './zonedTime';

export const SERVICE_TIME_ZONE = 'America/Denver';
/** Maintenance starts at 18:00 Mountain Time and lasts until midnight. */
export const MAINTENANCE_START_HOUR = 18;
/** "About every five weeks": how far apart the next window is guessed when none is announced yet. */
export const MAINTENANCE_CYCLE_DAYS = 35;
/** The sandbox's staffed hours, Mountain Time, Monday to Friday. */
export const SANDBOX_STAFFED_HOURS = { from: 9, to: 17 } as const;

export interface MaintenanceWindow {
  /** The Saturday, YYYY-MM-DD (Mountain Time). */
  date: string;
  start: Date;
  end: Date;
  /** True when the service has not announced this date: guessed from the last announced one. */
  estimated: boolean;
}

/** The maintenance window on a Saturday (YYYY-MM-DD); null for a date that is not a Saturday. */
export function maintenanceWindowOn(date: string, estimated = false): MaintenanceWindow | null {
  const day = parseIsoDate(date);
  if (!day || weekdayOf(day) !== 6) return null;
  return {
    date: isoDate(day),
    start: instantOfWallTime(day, MAINTENANCE_START_HOUR, 0, SERVICE_TIME_ZONE),
    end: instantOfWallTime(addDays(day, 1), 0, 0, SERVICE_TIME_ZONE),
    estimated,
  };
}

/**
 * Announced dates as a person typed them (one per line or separated by commas or spaces): the real
 * Saturdays, in order and once each, and a sentence for each entry that is not one.
 */
export function checkAnnouncedDates(entries: string[]): { dates: string[]; problems: string[] } {
  const dates = new Set<string>();
  const problems: string[] = [];
  for (const entry of entries.flatMap((e) => e.split(/[\s,;]+/)).filter(Boolean)) {
    const day = parseIsoDate(entry);
    if (!day) problems.push(`"${entry}" is not a date: write it as YYYY-MM-DD, for example 2026-12-05.`);
    else if (weekdayOf(day) !== 6)
      problems.push(`${entry} is not a Saturday: the service's maintenance is always on a Saturday.`);
    else dates.add(isoDate(day));
  }
  return { dates: [...dates].sort(), problems };
}

/** The window in force at `now`, if any, among the announced dates. */
export function maintenanceAt(now: Date, announced: readonly string[]): MaintenanceWindow | null {
  for (const date of announced) {
    const window = maintenanceWindowOn(date);
    if (window && window.start <= now && now < window.end) return window;
  }
  return null;
}

/**
 * The window in force or the next one: the first announced date not over yet; when every announced
 * date is past, a guess about five weeks after the last one (marked estimated); null when no date was
 * ever announced (the desk does not invent a calendar from nothing).
 */
export function nextMaintenance(now: Date, announced: readonly string[]): MaintenanceWindow | null {
  const windows = announced
    .map((date) => maintenanceWindowOn(date))
    .filter((w): w is MaintenanceWindow => w !== null)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const coming = windows.find((w) => w.end > now);
  if (coming) return coming;
  const last = windows.at(-1);
  if (!last) return null;
  let day = parseIsoDate(last.date)!;
  for (let i = 0; i < 1000; i++) {
    day = addDays(day, MAINTENANCE_CYCLE_DAYS);
    const guess = maintenanceWindowOn(isoDate(day), true)!;
    if (guess.end > now) return guess;
  }
  return null;
}

/** The window that is in force or starts within the next `hours` hours, if any. */
export function maintenanceWithin(
  now: Date,
  hours: number,
  announced: readonly string[],
): MaintenanceWindow | null {
  const next = nextMaintenance(now, announced);
  if (!next) return null;
  return next.start.getTime() <= now.getTime() + hours * 3_600_000 ? next : null;
}

/** Whether the sandbox is in its staffed hours (9:00–17:00 Mountain Time, Monday to Friday). */
export function sandboxStaffed(now: Date): boolean {
  const wall = wallTimeIn(now, SERVICE_TIME_ZONE);
  return (
    wall.weekday >= 1 &&
    wall.weekday <= 5 &&
    wall.hour >= SANDBOX_STAFFED_HOURS.from &&
    wall.hour < SANDBOX_STAFFED_HOURS.to
  );
}
