/*
 * Wall-clock time in a named time zone, from the time zone data the platform ships (Intl): no offset
 * is written by hand, so daylight saving and any change of the rules come with the platform.
 */

export interface WallTime {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** What a clock on the wall in `timeZone` shows at `instant`. */
export function wallTimeIn(instant: Date, timeZone: string): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatIn(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
}

/** Minutes `timeZone` is ahead of UTC at `instant` (negative west of Greenwich). */
function offsetMinutes(instant: Date, timeZone: string): number {
  const wall = wallTimeIn(instant, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  return Math.round((asUtc - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
}

/**
 * The instant at which a wall clock in `timeZone` shows the given date and time. A time that occurs
 * twice (the hour the clocks go back) gives the first; one that never occurs (the hour the clocks go
 * forward) is moved on by the length of the jump, as most calendars do (02:30 becomes 03:30).
 */
export function instantOfWallTime(
  date: { year: number; month: number; day: number },
  hour: number,
  minute: number,
  timeZone: string,
): Date {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  const before = offsetMinutes(new Date(asUtc - 86_400_000), timeZone);
  const after = offsetMinutes(new Date(asUtc + 86_400_000), timeZone);
  const shows = (t: number) => {
    const wall = wallTimeIn(new Date(t), timeZone);
    return (
      wall.year === date.year &&
      wall.month === date.month &&
      wall.day === date.day &&
      wall.hour === hour &&
      wall.minute === minute
    );
  };
  const candidates = [asUtc - before * 60_000, asUtc - after * 60_000].filter(shows).sort((a, b) => a - b);
  return new Date(candidates[0] ?? asUtc - before * 60_000);
}

/** A calendar date (YYYY-MM-DD) as numbers, or null when it is not a real date. */
export function parseIsoDate(text: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

/** The date `days` after the given one. */
export function addDays(
  date: { year: number; month: number; day: number },
  days: number,
): { year: number; month: number; day: number } {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

/** YYYY-MM-DD of a date. */
export function isoDate(date: { year: number; month: number; day: number }): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/** 0 = Sunday … 6 = Saturday, of a calendar date (no time zone involved). */
export function weekdayOf(date: { year: number; month: number; day: number }): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}
