/*
 * The service's calendar in plain words, in Mountain Time (the service's own) and in the person's
 * own time, so nobody has to work out the difference.
 */
import type { MaintenanceWindow } from './maintenance';

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

/** While a window is in force. */
export function maintenanceNowWords(window: MaintenanceWindow, now: Date, words: TimeWords = {}): string {
  return (
    `The giving service is in scheduled maintenance until 24:00 Mountain Time ` +
    `(${yourTime(window.end, now, words)}).`
  );
}

/** A window to come, for Settings and the header ("Next scheduled maintenance: …"). */
export function maintenanceAheadWords(window: MaintenanceWindow, now: Date, words: TimeWords = {}): string {
  const when =
    `${saturday(window, words)}, 18:00–24:00 Mountain Time ` +
    `(${yourTime(window.start, now, words)} to ${clock(window.end, words, false)})`;
  return window.estimated
    ? `${when}: expected about five weeks after the last announced date; check the service's announcements.`
    : when;
}

/** Before an upload whose validation or processing may still run when a window starts. */
export function uploadBeforeMaintenanceWords(
  window: MaintenanceWindow,
  now: Date,
  words: TimeWords = {},
): string {
  return (
    `The giving service has scheduled maintenance from ${saturday(window, words)}, 18:00 Mountain Time ` +
    `(${yourTime(window.start, now, words)}). Processing can take up to 24 hours, so this upload may ` +
    `still be validating or processing then. It is safe to send: the desk follows it again when the ` +
    `service is back.`
  );
}

/** Outside the sandbox's staffed hours. */
export const SANDBOX_UNSTAFFED_WORDS =
  'The sandbox is looked after 9:00–17:00 Mountain Time, Monday to Friday; outside those hours it may be slow or away.';
