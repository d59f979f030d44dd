import { describe, expect, it } from 'vitest';
import { dateTime, dateTimeSeconds, day, dayWords, stepTimes, timeOfDaySeconds, utcDateTime } from './dates';

const at = '2026-11-26T15:27:05Z';
const local = (options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(undefined, options).format(new Date(at));

describe('one date format throughout', () => {
  it('uses the locale’s medium date with a short time, seconds only where asked', () => {
    expect(dateTime(at)).toBe(local({ dateStyle: 'medium', timeStyle: 'short' }));
    expect(dateTimeSeconds(at)).toBe(local({ dateStyle: 'medium', timeStyle: 'medium' }));
    expect(day(at)).toBe(local({ dateStyle: 'medium' }));
    expect(dayWords(at)).toBe(`on ${local({ dateStyle: 'medium' })}`);
  });

  it('says UTC where the time is UTC, and shows the UTC day whatever the computer’s zone', () => {
    const late = '2026-11-30T23:30:00Z';
    expect(utcDateTime(late)).toMatch(/ UTC$/);
    expect(utcDateTime(late)).toContain(
      new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(late)),
    );
    expect(utcDateTime(at, true)).toContain(
      new Intl.DateTimeFormat(undefined, { timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(at)),
    );
  });

  it('shows a dash for no time or a broken one', () => {
    expect(dateTime(null)).toBe('—');
    expect(day('not a date')).toBe('—');
    expect(utcDateTime(undefined)).toBe('—');
  });

  it('writes a timeline’s date once per day: later steps on the same day show only their time', () => {
    const first = '2026-11-26T12:00:01Z';
    const second = '2026-11-26T12:00:09Z';
    const nextDay = '2026-11-28T12:00:00Z';
    expect(stepTimes([first, second, nextDay])).toEqual([
      dateTimeSeconds(first),
      timeOfDaySeconds(second),
      dateTimeSeconds(nextDay),
    ]);
    expect(timeOfDaySeconds(second)).toBe(
      new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(second)),
    );
    expect(stepTimes([])).toEqual([]);
  });
});
