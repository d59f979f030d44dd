import { describe, expect, it } from 'vitest';
import {
  DOCUMENTED_RELEASE_DATES,
  expectedMaintenance,
  holdDelayMs,
  maintenanceBeforeUploadDone,
  maintenanceHold,
} from './hold';
import { maintenanceWindowOn } from './maintenance';
import { maintenanceUntilWords, sandboxStaffedHoursWords } from './words';

const at = (iso: string) => new Date(iso);
const announced = ['2026-12-05'];
// Saturday 5 December 2026, 19:00 Mountain Time (standard time, UTC−7).
const inWindow = at('2026-12-06T02:00:00Z');
const maintenanceAnswer = { status: 503, code: 'SCHEDULED_MAINTENANCE', retryAfterMs: 3_600_000 };

describe('holding for maintenance', () => {
  it('holds until the window’s end when the service says it is in maintenance during a window', () => {
    const hold = maintenanceHold(maintenanceAnswer, inWindow, announced);
    expect(hold?.until.toISOString()).toBe('2026-12-06T07:00:00.000Z');
    expect(hold?.window?.date).toBe('2026-12-05');
  });

  it('takes the service’s Retry-After when no window of the calendar is in force', () => {
    const now = at('2026-11-26T20:00:00Z');
    expect(maintenanceHold(maintenanceAnswer, now, announced)?.until.toISOString()).toBe(
      '2026-11-26T21:00:00.000Z',
    );
    // Without a Retry-After: the end of the service's day, 24:00 Mountain Time.
    expect(
      maintenanceHold({ status: 503, code: 'SCHEDULED_MAINTENANCE' }, now, announced)?.until.toISOString(),
    ).toBe('2026-11-27T07:00:00.000Z');
  });

  it('takes a plain 503 or no answer during a window for the maintenance, and is an ordinary failure outside', () => {
    expect(maintenanceHold({ status: 503 }, inWindow, announced)?.until.toISOString()).toBe(
      '2026-12-06T07:00:00.000Z',
    );
    expect(maintenanceHold({ status: 0 }, inWindow, announced)).not.toBeNull();
    expect(maintenanceHold({ status: 500 }, inWindow, announced)).toBeNull();
    expect(maintenanceHold({ status: 503 }, at('2026-12-06T07:00:00Z'), announced)).toBeNull();
    expect(maintenanceHold({ status: 0 }, at('2026-11-26T20:00:00Z'), announced)).toBeNull();
    expect(maintenanceHold({ status: 429, code: 'SCHEDULED_MAINTENANCE' }, inWindow, announced)).toBeNull();
  });

  it('looks again now and then, never waiting hours nor less than a second', () => {
    const hold = maintenanceHold(maintenanceAnswer, inWindow, announced)!;
    expect(holdDelayMs(hold, inWindow, 60_000)).toBe(60_000);
    expect(holdDelayMs(hold, at('2026-12-06T06:59:30Z'), 60_000)).toBe(30_000);
    expect(holdDelayMs(hold, at('2026-12-06T08:00:00Z'), 60_000)).toBe(1_000);
  });
});

describe('the expected window', () => {
  it('is the next announced one, or else a guess from the documented release dates', () => {
    expect(expectedMaintenance(at('2026-11-26T12:00:00Z'), announced)).toMatchObject({
      date: '2026-12-05',
      estimated: false,
    });
    const guess = expectedMaintenance(at('2026-11-26T12:00:00Z'), [])!;
    expect(guess.estimated).toBe(true);
    // Whole five-week steps from the last documented release date.
    const days = (Date.parse(guess.date) - Date.parse(DOCUMENTED_RELEASE_DATES.at(-1)!)) / 86_400_000;
    expect(days % 35).toBe(0);
    expect(maintenanceWindowOn(guess.date)).not.toBeNull();
  });

  it('warns before an upload whose processing may reach into it', () => {
    // The window starts at 01:00 UTC on 6 December; an upload may run 24 hours and an hour's margin.
    expect(maintenanceBeforeUploadDone(at('2026-12-04T23:59:00Z'), announced)).toBeNull();
    expect(maintenanceBeforeUploadDone(at('2026-12-05T00:00:00Z'), announced)?.date).toBe('2026-12-05');
  });
});

describe('hold words', () => {
  it('say the end in Mountain Time (24:00 for midnight) and in the person’s own time', () => {
    expect(
      maintenanceUntilWords(at('2026-12-06T07:00:00Z'), inWindow, { locale: 'en-GB', timeZone: 'UTC' }),
    ).toBe('The giving service is in scheduled maintenance until 24:00 Mountain Time (07:00 your time).');
    expect(
      maintenanceUntilWords(at('2026-11-26T21:00:00Z'), at('2026-11-26T20:00:00Z'), {
        locale: 'en-GB',
        timeZone: 'UTC',
      }),
    ).toBe('The giving service is in scheduled maintenance until 14:00 Mountain Time (21:00 your time).');
  });

  it('give the sandbox’s staffed hours in the person’s own time', () => {
    expect(sandboxStaffedHoursWords(at('2026-11-26T20:00:00Z'), { locale: 'en-GB', timeZone: 'UTC' })).toBe(
      '16:00–00:00 your time',
    );
    expect(
      sandboxStaffedHoursWords(at('2026-07-13T20:00:00Z'), { locale: 'en-GB', timeZone: 'Europe/Berlin' }),
    ).toBe('17:00–01:00 your time');
  });
});
