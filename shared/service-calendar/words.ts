/*
 * The service's calendar in plain words, in Mountain Time (the service's own) and in the person's
 * own time, so nobody has to work out the difference.
 */
import type { MaintenanceWindow } from './maintenance';
import { instantOfWallTime, wallTimeIn } from './zonedTime';

export interface TimeWords {
  /** The person's locale (e.g. "en-GB"); the platform's when left out. */
  locale?: string;
  /** The person's time zone (e.g. "Europe/Berlin"); the platform's when left out. */
  timeZone?: string;
}

function clock(instant: Date, words: TimeWords, withDay: boolean): string {
  return new Intl.DateTimeFormat(words.locale, {
    timeZone: words.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(withDay ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
  }).format(instant);
}

function dayOf(instant: Date, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The Saturday itself, as the person's locale writes a date ("Sat 5 Dec 2026"). */
function saturday(window: MaintenanceWindow, words: TimeWords): string {
  return new Intl.DateTimeFormat(words.locale, {
    timeZone: 'America/Denver',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(window.start);
}

/** "07:00 your time", with the day too when the person's day is not the day of `now`. */
function yourTime(instant: Date, now: Date, words: TimeWords): string {
  const sameDay = dayOf(instant, words.timeZone) === dayOf(now, words.timeZone);
  return `${clock(instant, words, !sameDay)} your time`;
}

/**
 * A window in the person's own time: "Sun 6 Dec, 02:00–08:00 your time" when it lies in one of their
 * days (the day said when it is not today), else "Sat 5 Dec, 20:00 to Sun 6 Dec, 02:00 your time".
 * A window ending at the person's midnight ends at 24:00 of its day.
 */
function yourSpan(window: MaintenanceWindow, now: Date, words: TimeWords): string {
  const lastMoment = new Date(window.end.getTime() - 1);
  const oneDay = dayOf(window.start, words.timeZone) === dayOf(lastMoment, words.timeZone);
  const start = clock(
    window.start,
    words,
    dayOf(window.start, words.timeZone) !== dayOf(now, words.timeZone),
  );
  if (!oneDay) return `${start} to ${clock(window.end, words, true)} your time`;
  const end = clock(window.end, words, false);
  return `${start}–${end === '00:00' ? '24:00' : end} your time`;
}

/** While a window is in force. */
export function maintenanceNowWords(window: MaintenanceWindow, now: Date, words: TimeWords = {}): string {
  return maintenanceUntilWords(window.end, now, words);
}

/** A Mountain Time clock ("24:00" for midnight, the end of the service's day). */
function mountainClock(instant: Date): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Denver',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
  return text === '00:00' ? '24:00' : text;
}

/** While the service is in maintenance until `until` (a window's end, or what the service said). */
export function maintenanceUntilWords(until: Date, now: Date, words: TimeWords = {}): string {
  return (
    `The giving service is in scheduled maintenance until ${mountainClock(until)} Mountain Time ` +
    `(${yourTime(until, now, words)}).`
  );
}

/** What happens to uploads during a hold. */
export const UPLOAD_HELD_WORDS = 'Your upload is safe; it will be followed when the service is back.';
/** What happens to the donations' refresh during a hold. */
export const REFRESH_HELD_WORDS =
  'Nothing is lost; the donations will be read again when the service is back.';

/** What is said of a window that is only a guess from the cycle. */
export const MAINTENANCE_GUESS_WORDS =
  "a guess, about five weeks after the last known date; check the service's announcements.";

/** When a window to come falls: "Sat 5 Dec 2026, 18:00–24:00 Mountain Time (Sun 6 Dec, 02:00–08:00 your time)". */
export function maintenanceWhenWords(window: MaintenanceWindow, now: Date, words: TimeWords = {}): string {
  return `${saturday(window, words)}, 18:00–24:00 Mountain Time (${yourSpan(window, now, words)})`;
}

/** A window to come, for Settings and the header ("Next scheduled maintenance: …"). */
export function maintenanceAheadWords(window: MaintenanceWindow, now: Date, words: TimeWords = {}): string {
  const when = maintenanceWhenWords(window, now, words);
  return window.estimated ? `${when}: ${MAINTENANCE_GUESS_WORDS}` : when;
}

/** Before an upload whose validation or processing may still run when a window starts. */
export function uploadBeforeMaintenanceWords(
  window: MaintenanceWindow,
  now: Date,
  words: TimeWords = {},
): string {
  const has = window.estimated ? 'is expected to have' : 'has';
  return (
    `The giving service ${has} scheduled maintenance from ${saturday(window, words)}, 18:00 Mountain Time ` +
    `(${yourTime(window.start, now, words)}). Processing can take up to 24 hours, so this upload may ` +
    `still be validating or processing then. It is safe to send: the desk follows it again when the ` +
    `service is back.`
  );
}

/** Outside the sandbox's staffed hours. */
export const SANDBOX_UNSTAFFED_WORDS =
  'The sandbox is looked after 9:00–17:00 Mountain Time, Monday to Friday; outside those hours it may be slow or away.';

/** The sandbox's staffed hours in the person's own time, on the day of `now` ("10:00–18:00 your time"). */
export function sandboxStaffedHoursWords(now: Date, words: TimeWords = {}): string {
  const { from, to } = staffedInstants(now);
  return `${clock(from, words, false)}–${clock(to, words, false)} your time`;
}

/** 9:00 and 17:00 Mountain Time on the Mountain Time day of `now`. */
function staffedInstants(now: Date): { from: Date; to: Date } {
  const wall = wallTimeIn(now, 'America/Denver');
  return {
    from: instantOfWallTime(wall, 9, 0, 'America/Denver'),
    to: instantOfWallTime(wall, 17, 0, 'America/Denver'),
  };
}
